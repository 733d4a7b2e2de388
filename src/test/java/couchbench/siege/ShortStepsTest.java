package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.startup.Settings;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The step-length rule: a step of at least 2 s, and at least 8 requests per user. */
class StepLengthTest {

  @Test
  void shouldKeepToTheRuleWithSiegesDefaultStepAndWarnUnderTwoSeconds() {
    assertEquals(Optional.empty(), ShortSteps.ofPlan(plan(Map.of())), "60 s by default");
    assertEquals(Optional.empty(), ShortSteps.ofPlan(plan(Map.of("duration", "2"))));
    assertEquals(Optional.of("Each step lasted 1 s (-Dduration=1), under the 2 s of load a figure should rest on: its"
            + " figures tell of the moment more than of the server; give -Dduration=2 or more."),
        ShortSteps.ofPlan(plan(Map.of("duration", "1", "rounds", "3"))));
  }

  @Test
  void shouldWarnWhenUsersSentFewerThanEightRequestsEachFailedOnesCounted() {
    assertEquals(Optional.empty(), ShortSteps.ofStep("couchdb set", figures(30, 2), 4), "32 requests by 4 users");
    assertEquals(Optional.of("couchdb set round 2 rested on 7.8 requests per user (31 requests by 4 users), under the"
            + " 8 a figure should rest on: give a longer -Dduration or fewer -Dusers."),
        ShortSteps.ofStep("couchdb set round 2", figures(31, 0), 4));
    assertEquals(Optional.empty(), ShortSteps.ofStep("memcache get", figures(400, 0), 50), "8 each");
    assertEquals(Optional.of("memcache get rested on 0.0 requests per user (0 requests by 50 users), under the 8 a"
        + " figure should rest on: give a longer -Dduration or fewer -Dusers."),
        ShortSteps.ofStep("memcache get", figures(0, 0), 50));
  }

  private static SiegePlan plan(Map<String, String> parameters) {
    return SiegePlan.from(Settings.of(parameters, Map.of()));
  }

  private static SiegeFigures figures(long transactions, long failed) {
    return new SiegeFigures(transactions, failed, 1, 0.01, 1, 0.02, 0.001);
  }
}
