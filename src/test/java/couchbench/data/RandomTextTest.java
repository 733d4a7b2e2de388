package couchbench.data;

import static java.util.stream.Collectors.counting;
import static java.util.stream.Collectors.groupingBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Map;
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

  /** Each of the 63 characters about as often as any other: 6 random bits a character, the 64th value drawn again. */
  @Test
  void shouldUseEveryCharacterAboutEquallyOften() {
    String text = RandomText.ofLength(630_000);
    Map<Character, Long> counts = text.chars().mapToObj(c -> (char) c).collect(groupingBy(c -> c, counting()));

    assertEquals(63, counts.size(), counts.toString());
    counts.forEach((character, count) ->
        assertTrue(count > 9_000 && count < 11_000, "'" + character + "' " + count + " times, expected about 10,000"));
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
