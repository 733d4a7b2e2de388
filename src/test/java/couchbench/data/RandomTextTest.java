package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RandomTextTest {

  @Test
  void shouldBeExactlyAsLongAsAskedInCharactersAndBytes() {
    for (int length : new int[] {0, 1, 100, 10_000}) {
      String text = RandomText.ofLength(length);
      assertEquals(length, text.length());
      assertEquals(length, text.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  @Test
  void shouldNeedNoJsonEscaping() {
    assertTrue(RandomText.ofLength(5000).matches("[A-Za-z0-9 ]*"));
  }

  @Test
  void shouldFillBuffersWithTheSameTextForTheSameSeed() {
    byte[] first = new byte[4096];
    byte[] again = new byte[4096];
    RandomText.fill(first, new SplittableRandom(7));
    RandomText.fill(again, new SplittableRandom(7));

    assertArrayEquals(first, again);
    assertTrue(new String(first, StandardCharsets.US_ASCII).matches("[A-Za-z0-9 ]{4096}"));
  }

  @Test
  void shouldDifferFromCallToCall() {
    assertNotEquals(RandomText.ofLength(64), RandomText.ofLength(64));
  }

  @Test
  void shouldGiveTheSameTextForTheSameKeyAndLengthOnly() {
    assertEquals(RandomText.forKey("42", 100), RandomText.forKey("42", 100));
    assertNotEquals(RandomText.forKey("42", 100), RandomText.forKey("43", 100));
    assertEquals(100, RandomText.forKey("42", 100).length());
    assertTrue(RandomText.forKey("42", 500).matches("[A-Za-z0-9 ]*"));
  }

  @Test
  void shouldRefuseNegativeLengths() {
    assertThrows(IllegalArgumentException.class, () -> RandomText.ofLength(-1));
  }
}
