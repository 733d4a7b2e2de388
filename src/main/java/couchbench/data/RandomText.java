package couchbench.data;

import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

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
    return text(ThreadLocalRandom.current(), length);
  }

  /**
   * Text that looks random but is the same for the same key and length, so that a reader can tell
   * the stored text is intact without keeping a copy of it.
   *
   * @param key the key the text is stored under
   * @param length number of characters, zero or more
   * @return the text
   */
  public static String forKey(String key, int length) {
    return text(new SplittableRandom(key.hashCode() * 0x9E3779B97F4A7C15L + length), length);
  }

  /**
   * Fills a buffer with random text as ASCII bytes, for data too large to hold as one string.
   *
   * @param buffer filled from its start to its end
   * @param random the source of randomness, e.g. seeded for text that is the same on every run
   */
  public static void fill(byte[] buffer, RandomGenerator random) {
    for (int i = 0; i < buffer.length; i++) {
      buffer[i] = (byte) ALPHABET[random.nextInt(ALPHABET.length)];
    }
  }

  private static String text(RandomGenerator random, int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
    }
    char[] text = new char[length];
    for (int i = 0; i < length; i++) {
      text[i] = ALPHABET[random.nextInt(ALPHABET.length)];
    }
    return new String(text);
  }
}
