package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CurvePlanTest {

  @Test
  void shouldReadAFixedStaircaseAndASearch() {
    CurvePlan fixed = plan(Map.of("targets", "1000, 2000,4000", "stepSeconds", "5")).orElseThrow();
    assertEquals(List.of(1000.0, 2000.0, 4000.0), fixed.targets());
    assertEquals(Duration.ofSeconds(5), fixed.measure());
    assertEquals(Duration.ofSeconds(3), fixed.settle());
    assertEquals("target rates 1000, 2000, 4000 /s; each step 3 s settling, 5 s measured", fixed.describe());

    CurvePlan auto = plan(Map.of("targets", "auto", "sla", "p99.9<500us", "startRate", "50")).orElseThrow();
    assertTrue(auto.search(16).searches());
    assertEquals(new LatencyGoal(99.9, 500), auto.goal().orElseThrow());
    assertEquals("a search for the highest rate meeting p99.9 < 500 us, from 50/s (at most 12 steps); each step 3 s"
        + " settling, 10 s measured", auto.describe());
    assertTrue(plan(Map.of()).isEmpty());
  }

  @Test
  void shouldRecordTheGoalAmongTheRunsParametersForAMergeToJudgeAgainst() {
    Settings settings = Settings.of(Map.of("targets", "100,200", "sla", "p99<5ms"), Map.of());

    CurvePlan.from(settings);

    assertEquals("p99<5ms", settings.parameters().get("sla"));
  }

  @Test
  void shouldReadGoalsInEachUnit() {
    assertEquals(new LatencyGoal(99, 10_000), LatencyGoal.parse("p99<10ms"));
    assertEquals(new LatencyGoal(50, 1_000_000), LatencyGoal.parse(" P50 < 1 s "));
    assertEquals("p99 < 10 ms", LatencyGoal.parse("p99<10ms").describe());
  }

  @Test
  void shouldRefuseWhatCannotRunInOneLineNamingTheSetting() {
    assertEquals("-Dsla=p99 10ms is not a latency goal: give a percentile and a limit, e.g. -Dsla=p99<10ms,"
        + " -Dsla=p99.9<500us or -Dsla=p50<1s", refused(Map.of("targets", "auto", "sla", "p99 10ms")));
    assertTrue(refused(Map.of("targets", "auto")).startsWith("-Dtargets=auto searches for the highest rate that"
        + " meets a latency goal: give one"));
    assertTrue(refused(Map.of("sla", "p99<1ms")).startsWith("-Dsla needs -Dtargets"));
    assertTrue(refused(Map.of("targets", "1000,fast")).startsWith("-Dtargets=1000,fast: 'fast' is not a rate"));
    assertTrue(refused(Map.of("targets", "1000,0")).startsWith("-Dtargets=1000,0: '0' is not a rate above 0"));
    assertTrue(refused(Map.of("targets", "auto", "sla", "p100<1ms")).contains("the percentile must be above 0"));
    assertTrue(refused(Map.of("targets", "auto", "sla", "p99<1ms", "startRate", "0")).startsWith("-DstartRate=0.0 is"
        + " not a rate above 0"));
  }

  private static java.util.Optional<CurvePlan> plan(Map<String, String> properties) {
    return CurvePlan.from(Settings.of(properties, Map.of()));
  }

  private static String refused(Map<String, String> properties) {
    return assertThrows(SettingsException.class, () -> plan(properties)).getMessage();
  }
}
