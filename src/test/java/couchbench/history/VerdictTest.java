package couchbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.rounds.Spread;
import couchbench.startup.SettingsException;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {

  private static final Regression P99_10 = new Regression(Figure.P99, 0.10);
  private static final Regression THROUGHPUT_5 = new Regression(Figure.THROUGHPUT, 0.05);

  @Test
  void shouldPassARegressionInsideTheNoiseAndFailOneOutsideIt() {
    Spread baseline = Spread.of(List.of(100.0, 130.0, 160.0));

    Verdict inside = Verdict.of("get", P99_10, baseline, Spread.of(List.of(120.0, 150.0, 170.0)));
    assertEquals(20.0 / 130, inside.worse(), 1e-9, "15.4% worse at the median, over the threshold");
    assertFalse(inside.regressed(), "but its rounds overlap the baseline's: within the noise");
    assertTrue(inside.describe().endsWith("over 3 and 3 rounds, the rounds' ranges overlap: within the noise"),
        inside.describe());

    Verdict outside = Verdict.of("get", P99_10, baseline, Spread.of(List.of(170.0, 180.0, 200.0)));
    assertTrue(outside.regressed(), "every round worse than every baseline round, and over the threshold");
    assertTrue(outside.describe().startsWith("REGRESSED p99 of get: 180.0 us against 130.0 us in the baseline (+38.5%"
        + " worse, threshold 10.0%)"), outside.describe());

    Verdict withinThreshold = Verdict.of("get", new Regression(Figure.P99, 0.30), baseline,
        Spread.of(List.of(161.0, 162.0, 163.0)));
    assertTrue(withinThreshold.roundsApart());
    assertFalse(withinThreshold.regressed(), "apart from the baseline's rounds, but 24.6% worse is within 30%");
  }

  @Test
  void shouldSayAVerdictWithoutRoundsRestsOnOneMeasurement() {
    Verdict once = Verdict.of("get", P99_10, Spread.once(100), Spread.once(111));

    assertTrue(once.regressed());
    assertFalse(once.noiseTested());
    assertTrue(once.describe().contains("the verdict rests on one measurement of each run"), once.describe());
    assertFalse(Verdict.of("get", P99_10, Spread.once(100), Spread.once(109)).regressed(), "within 10%");
    assertFalse(Verdict.of("get", P99_10, Spread.of(List.of(100.0, 101.0, 102.0)), Spread.once(150)).noiseTested(),
        "rounds on one side only: no noise test");
  }

  @Test
  void shouldNotJudgeAFigureWhoseBaselineIsZero() {
    Verdict underTheClock = Verdict.of("get", P99_10, Spread.once(0), Spread.once(1000));

    assertFalse(underTheClock.regressed());
    assertTrue(underTheClock.notJudged());
    assertTrue(underTheClock.describe().endsWith("not judged: the baseline's figure is 0 (a latency under the clock's"
        + " millisecond)"), underTheClock.describe());
  }

  @Test
  void shouldCountALowerRateAsWorse() {
    assertTrue(Verdict.of("get", THROUGHPUT_5, Spread.once(1000), Spread.once(940)).regressed(), "6% fewer");
    assertFalse(Verdict.of("get", THROUGHPUT_5, Spread.once(1000), Spread.once(2000)).regressed(), "faster");
    assertEquals(-1.0, Verdict.of("get", THROUGHPUT_5, Spread.once(1000), Spread.once(2000)).worse(), 1e-9);
  }

  @Test
  void shouldReadThresholdsAndRefuseOnesThatDoNotParseInOneLine() {
    assertEquals(List.of(new Regression(Figure.P99, 0.1), new Regression(Figure.THROUGHPUT, 0.05),
        new Regression(Figure.P999, 0.2)), Regression.parse("p99:10%, throughput:5%,P99.9:20"));
    assertEquals("-Dregression=p99:ten: 'p99:ten' is not a figure and a threshold; give e.g."
        + " -Dregression=p99:10%,throughput:5% (figures: throughput, mean, p50, p90, p99, p99.9, max)",
        assertThrows(SettingsException.class, () -> Regression.parse("p99:ten")).getMessage());
    assertThrows(SettingsException.class, () -> Regression.parse("p42:10%"));
    assertThrows(SettingsException.class, () -> Regression.parse("p99:-1%"));
  }
}
