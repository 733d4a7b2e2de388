package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class SubsetTest {

  @Test
  void shouldDrawTheFastestTheMedianAndTheSlowestOfMany() {
    List<Integer> p99s = IntStream.rangeClosed(1, 63).map(i -> 64 - i).boxed().toList();

    Subset<Integer> drawn = Subset.lowestMedianHighest(p99s, i -> i, 7);

    assertEquals(List.of(1, 2, 3, 32, 61, 62, 63), drawn.drawn());
    assertTrue(drawn.partial());
    assertEquals("The chart draws 7 of the 63 requests: the 3 fastest, the median and the 3 slowest by p99; the CSV"
        + " has them all.", drawn.describe("requests", "p99", "fastest", "slowest"));
  }

  @Test
  void shouldDrawAllOfAFewRankedAndSayNothing() {
    Subset<Integer> drawn = Subset.lowestMedianHighest(List.of(5, 1, 3), i -> i, 7);

    assertEquals(List.of(1, 3, 5), drawn.drawn());
    assertFalse(drawn.partial());
    assertEquals("", drawn.describe("requests", "p99", "fastest", "slowest"));
  }
}
