package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class WarmUpTest {

  // 100 reads a second: the hits of each second given, from second 0; the misses are the rest, each a CouchDB read.
  private static List<CacheAsideFigures.ReadSecond> seconds(int... hits) {
    List<CacheAsideFigures.ReadSecond> seconds = new ArrayList<>();
    for (int second = 0; second < hits.length; second++) {
      seconds.add(new CacheAsideFigures.ReadSecond(second, hits[second], 100 - hits[second], 100 - hits[second], 0,
          0, 0, 0.1, 0.2, 5, 9));
    }
    return seconds;
  }

  @Test
  void shouldTakeTheHitRatioOfTheTenSecondsBeforeTheSecondTheCacheWasEmptiedIn() {
    // Seconds 0-1 (0.1) are more than 10 s before second 12; seconds 2-11 hold 0.8; second 12 itself not.
    var seconds = seconds(10, 10, 80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 0, 0);

    assertEquals(0.8, WarmUp.before(seconds, 12), 1e-9);
    assertEquals(0.1, WarmUp.before(seconds, 1), 1e-9); // fewer seconds before: those there are
    assertEquals(-1, WarmUp.before(seconds, 0));
  }

  @Test
  void shouldGiveTheSecondsUntilTheFirstFiveSecondsWithinFivePercentOfBefore() {
    // Emptied in second 10, before 0.8; 0.76 is the least that is back. Seconds 14-18 hold 0.78, 0.76, 0.76, 0.76,
    // 0.76: 0.764, back, so 4 s; 13-17 hold 0.50 and those: 0.716, not yet.
    var seconds = seconds(80, 80, 80, 80, 80, 80, 80, 80, 80, 80, 0, 10, 30, 50, 78, 76, 76, 76, 76, 80);

    assertEquals(OptionalLong.of(4), WarmUp.seconds(seconds, 10, 0.8));
  }

  @Test
  void shouldCountAHitRatioAboveBeforeAsBack() {
    // The cache was still filling before: 0.25 (seconds 0-3). Emptied in second 4; seconds 5-9 hold 0.17, not back;
    // seconds 6-10 hold 0.27, above before: back, 2 s after.
    var seconds = seconds(10, 20, 30, 40, 0, 0, 5, 10, 30, 40, 50, 60);

    assertEquals(0.25, WarmUp.before(seconds, 4), 1e-9);
    assertEquals(OptionalLong.of(2), WarmUp.seconds(seconds, 4, WarmUp.before(seconds, 4)));
  }

  @Test
  void shouldSayNotBackWhenNoFullWindowBeforeTheRunsEndIsBack() {
    // Back only in the last four seconds: a window cut short by the run's end does not count.
    var seconds = seconds(80, 80, 80, 80, 80, 0, 10, 20, 30, 40, 80, 80, 80, 80);

    assertEquals(OptionalLong.empty(), WarmUp.seconds(seconds, 5, 0.8));
  }

  @Test
  void shouldAverageTheCouchDbReadsASecondOverTheSecondsGiven() {
    var seconds = seconds(80, 80, 0, 50);

    assertEquals(20, WarmUp.couchReadsPerSecond(seconds, 0, 2), 1e-9);
    assertEquals(75, WarmUp.couchReadsPerSecond(seconds, 2, Long.MAX_VALUE), 1e-9);
    assertEquals(-1, WarmUp.couchReadsPerSecond(seconds, 5, 9));
  }
}
