package couchbench.trend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Random;
import org.junit.jupiter.api.Test;

class TrendVerdictTest {

  private static final TrendPlan.Rule RSS_5 = new TrendPlan.Rule("rss", 5);

  @Test
  void shouldSayASeriesRisesWhenItsWholeIntervalIsAboveTheThreshold() {
    // 100 MB growing 1 MB a minute: 60%/h of a mean about 101 MB.
    TrendVerdict verdict = verdict(100, 1.0 / 60, 0.1, 120);

    assertEquals(TrendVerdict.Outcome.RISES, verdict.outcome());
    assertEquals(59, verdict.percentAnHour(), 1.5);
  }

  @Test
  void shouldSayASteadySeriesHolds() {
    assertEquals(TrendVerdict.Outcome.HOLDS, verdict(100, 0, 0.5, 120).outcome());
  }

  @Test
  void shouldSayASeriesMayRiseWhenItsIntervalReachesBelowTheThreshold() {
    // A slope of 10%/h under noise that leaves its interval some 20 %/h wide.
    assertEquals(TrendVerdict.Outcome.MAY_RISE, verdict(100, 10.0 / 3600, 0.8, 60).outcome());
  }

  @Test
  void shouldSayASeriesAtZeroThroughoutHolds() {
    TrendVerdict verdict = verdict(0, 0, 0, 60);

    assertEquals(TrendVerdict.Outcome.HOLDS, verdict.outcome());
    assertEquals("0 in every second", verdict.slope());
  }

  @Test
  void shouldNotJudgeARunTooShortNamingTheMinimum() {
    double[] seconds = new double[40];
    double[] values = new double[40];
    for (int i = 0; i < seconds.length; i++) {
      seconds[i] = i;
      values[i] = i % 2 == 0 ? 100 + i : Double.NaN; // 20 seconds sampled
    }

    TrendVerdict verdict = TrendVerdict.of(RSS_5, "memcached resident memory (MB)", seconds, values);

    assertEquals(TrendVerdict.Outcome.NOT_JUDGED, verdict.outcome());
    assertNull(verdict.fit());
    assertEquals("20 seconds with a value: a trend needs at least 30 (a run of 30 seconds or more)", verdict.slope());
  }

  @Test
  void shouldCountAMinutesSeriesInMinutes() {
    double[] seconds = new double[20 * 60];
    double[] values = new double[seconds.length];
    for (int i = 0; i < seconds.length; i++) {
      seconds[i] = i;
      values[i] = i % 60 == 59 ? 40 : Double.NaN; // a p99 per minute: on each minute's last second
    }

    TrendVerdict verdict = TrendVerdict.of(new TrendPlan.Rule("p99", 10), "p99 per minute (ms)", seconds, values);

    assertEquals(TrendVerdict.Outcome.NOT_JUDGED, verdict.outcome());
    assertEquals("20 minutes with a value: a trend needs at least 30 (a run of 30 minutes or more)", verdict.slope());
  }

  private static TrendVerdict verdict(double start, double perSecond, double noise, int seconds) {
    Random random = new Random(3);
    double[] xs = new double[seconds];
    double[] ys = new double[seconds];
    for (int i = 0; i < seconds; i++) {
      xs[i] = i;
      ys[i] = start + perSecond * i + noise * random.nextGaussian();
    }
    return TrendVerdict.of(RSS_5, "memcached resident memory (MB)", xs, ys);
  }
}
