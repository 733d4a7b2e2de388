package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.results.Histograms;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StepFiguresTest {

  private static final Optional<LatencyGoal> P99_UNDER_5MS = Optional.of(LatencyGoal.parse("p99<5ms"));

  @Test
  void shouldMeetAGoalOnlyAtNinetyPercentOfTheRateWithNothingFailedAndTheLatencyWithin() {
    assertTrue(step(100, 90, 0, 4_000).met());
    assertFalse(step(100, 89, 0, 4_000).met(), "below 90% of the rate asked");
    assertFalse(step(100, 100, 1, 4_000).met(), "one failed");
    assertFalse(step(100, 100, 0, 6_000).met(), "p99 over 5 ms");
    assertEquals(4_000, step(100, 100, 0, 4_000).atGoalMicros(), 4);
    assertTrue(StepFigures.judged(100, 95, 950, 0, 0, micros(1_000_000, 950), micros(10, 950), Optional.empty())
        .met(), "without a goal, the rate and no failure are enough");
  }

  @Test
  void shouldAddTheInjectorsStepsUpAndJudgeTheWhole() {
    // Each injector ran half of 100/s and 200/s. At 200/s injector 1 has a slow tail: 30 of its 900 operations at
    // 8 ms, 1.6% of the whole step's 1,900, which puts the whole's p99 over 5 ms though injector 0's alone met it.
    List<StepFigures> first = List.of(step(50, 50, 0, 1_000), step(100, 100, 0, 1_000));
    Histogram slow = micros(1_000, 870);
    slow.add(micros(8_000, 30));
    List<StepFigures> second = List.of(step(50, 48, 0, 1_000), StepFigures.judged(100, 90, 900, 0, 3, slow, slow,
        P99_UNDER_5MS));

    List<StepFigures> merged = StepFigures.merged(List.of(first, second), P99_UNDER_5MS);

    assertEquals(2, merged.size());
    assertEquals(100, merged.get(0).target());
    assertEquals(98, merged.get(0).achieved());
    assertTrue(merged.get(0).met());
    assertEquals(200, merged.get(1).target());
    assertEquals(190, merged.get(1).achieved());
    assertEquals(1_900, merged.get(1).ok());
    assertEquals(3, merged.get(1).late());
    assertEquals(1_900, Histograms.decode(merged.get(1).intendedMicros()).getTotalCount());
    assertFalse(merged.get(1).met());
    assertEquals(100.0, StepFigures.highestMet(merged));
    assertNull(StepFigures.highestMet(List.of(step(100, 10, 0, 1_000))));
  }

  @Test
  void shouldMergeAsManyStepsAsEveryInjectorRan() {
    List<StepFigures> two = List.of(step(50, 50, 0, 1_000), step(100, 100, 0, 1_000));

    assertEquals(1, StepFigures.merged(List.of(two, two.subList(0, 1)), P99_UNDER_5MS).size());
  }

  // A step whose operations all took the given latency, on both clocks: ten seconds of the rate achieved.
  private static StepFigures step(double target, double achieved, long failed, long latencyMicros) {
    Histogram latencies = micros(latencyMicros, (long) achieved * 10);
    return StepFigures.judged(target, achieved, (long) achieved * 10, failed, 0, latencies, latencies,
        P99_UNDER_5MS);
  }

  private static Histogram micros(long value, long count) {
    Histogram histogram = new Histogram(3);
    histogram.recordValueWithCount(value, count);
    return histogram;
  }
}
