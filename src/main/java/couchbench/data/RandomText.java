package couchbench.data;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/** Random printable text, as the seeds' scripts stored: letters, digits and spaces, JSON-safe without escaping. */
public final class RandomText {

  // 63 characters: a draw of 6 random bits picks one, or is drawn again (1 in 64); a long gives ten draws, where
  // a bounded nextInt per character was 3.6% of MemSet's samples at pipeline 16.
  private static final byte[] ALPHABET =
      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ".getBytes(StandardCharsets.US_ASCII);
  private static final int BITS = 6;
  private static final int DRAWS_PER_LONG = Long.SIZE / BITS;
  private static final int MASK = (1 << BITS) - 1;

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
    int filled = 0;
    while (filled < buffer.length) {
      long bits = random.nextLong();
      for (int draw = 0; draw < DRAWS_PER_LONG && filled < buffer.length; draw++, bits >>>= BITS) {
        int index = (int) bits & MASK;
        if (index < ALPHABET.length) {
          buffer[filled++] = ALPHABET[index];
        }
      }
    }
  }

  private static String text(RandomGenerator random, int length) {
    if (length < 0) {
      throw new IllegalArgumentException("length: " + length + " (expected: >= 0)");
    }
    byte[] text = new byte[length];
    fill(text, random);
    return new String(text, StandardCharsets.US_ASCII);
  }
}
