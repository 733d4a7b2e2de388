package couchbench.data;

import java.util.concurrent.ThreadLocalRandom;

/** Random printable text, as the seeds' scripts stored: letters, digits and spaces, JSON-safe without escaping. */
public final class RandomText {

  private static final char[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".toCharArray();

  private RandomText() {}

  /**
   * Random text of exactly {@code length} characters (and bytes: the alphabet is ASCII).
   *
   * @param length number of characters, zero or more
   * @return the text
   */
  public static String ofLength(int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    char[] text = new char[length];
    for (int i = 0; i < length; i++) {
      text[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return new String(text);
  }
}
