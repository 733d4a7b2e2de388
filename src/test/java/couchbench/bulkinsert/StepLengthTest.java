package couchbench.bulkinsert;

import couchbench.rounds.StepRule;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class StepLengthTest {

  private static final long SECOND = 1_000_000_000L;

  private static BulkInsertPlan plan(Map<String, String> settings) {
    return BulkInsertPlan.from(Settings.of(settings, Map.of()));
  }

  @Test
  void shouldGrowTheDefaultStepsToEightRequestsPerUserWhereDocsIsTooFewForThat() {
    BulkInsertPlan plan = plan(Map.of("batchSizes", "1,256,362,1024", "threads", "1,3", "single", "false"));

    assertEquals(List.of(3072, 12, 9, 8, 1024, 8, 8, 8),
        plan.steps().stream().map(BulkInsertStep::requestsPerUser).toList(),
        "ceil(3072 / (B x T)) whole requests per user, at least 8");
    assertEquals(List.of(3072L, 3072L, 3258L, 8192L, 3072L, 6144L, 8688L, 24576L),
        plan.steps().stream().map(BulkInsertStep::documents).toList(), "docs grows to 8 x B x T where it must");
    assertEquals(new StepLength(8, 2), plan.length(), "by default: 8 requests per user and 2 s");
  }

  @Test
  void shouldKeepEachUserSendingUntilItsRequestsAreSentAndTheStepHasRunItsSeconds() {
    StepLength rule = new StepLength(8, 2);

    assertTrue(rule.goesOn(0, 8, 0), "the first request");
    assertTrue(rule.goesOn(7, 8, 5 * SECOND), "its eighth request, however long the step has run");
    assertTrue(rule.goesOn(8, 8, 2 * SECOND - 1), "more requests until 2 s have passed");
    assertFalse(rule.goesOn(8, 8, 2 * SECOND), "both done");
    assertTrue(new StepLength(1, 0).goesOn(11, 12, 9 * SECOND), "the docs' requests, whatever the time rule");
    assertFalse(new StepLength(1, 0).goesOn(12, 12, 0), "no time rule: the requests alone");
  }

  @Test
  void shouldLetExplicitParametersGoBelowTheRuleAndKnowAFigureThatRestsOnLess() {
    BulkInsertPlan plan = plan(Map.of("batchSizes", "1024", "threads", "3", "single", "false",
        "stepRequests", "1", "stepSeconds", "0"));

    assertEquals(1, plan.steps().get(0).requestsPerUser(), "one request per user, as 3072 docs need");
    assertTrue(StepRule.restsOnLess(0.3, 8), "under 2 s");
    assertTrue(StepRule.restsOnLess(5, 7.5), "under 8 requests per user");
    assertFalse(StepRule.restsOnLess(2, 8), "the rule itself");
    assertThrows(() -> plan(Map.of("stepRequests", "0")), "-DstepRequests=0 is too small");
    assertThrows(() -> plan(Map.of("stepSeconds", "-1")), "-DstepSeconds=-1 is too small");
  }

  @Test
  void shouldRunTheWholeSweepOncePerRoundInDatabasesAndUnderNamesOfItsOwn() {
    BulkInsertPlan plan = plan(Map.of("batchSizes", "1,64", "threads", "1,2", "rounds", "2"));

    assertEquals(List.of("single T=1 round 1", "bulk B=1 T=1 round 1", "bulk B=64 T=1 round 1", "single T=2 round 1",
        "bulk B=1 T=2 round 1", "bulk B=64 T=2 round 1", "single T=1 round 2", "bulk B=1 T=1 round 2",
        "bulk B=64 T=1 round 2", "single T=2 round 2", "bulk B=1 T=2 round 2", "bulk B=64 T=2 round 2"),
        plan.steps().stream().map(plan::name).toList(), "round 1 of every step, then round 2");
    assertEquals(12, plan.steps().stream().map(BulkInsertStep::database).distinct().count(), "a database each");
    assertTrue(plan.steps().get(7).database().endsWith("_b1_t1_r2"), plan.steps().get(7).database());
    assertEquals(3, plan.warmup().size(), "one warm-up, of each kind once");
    BulkInsertPlan once = plan(Map.of("batchSizes", "64", "threads", "1"));
    assertEquals("bulk B=64 T=1", once.name(once.steps().get(1)), "one round: the name as it was");
    assertTrue(once.steps().get(1).database().endsWith("_b64_t1"), once.steps().get(1).database());
  }

  private static void assertThrows(Executable executable, String message) {
    SettingsException thrown = org.junit.jupiter.api.Assertions.assertThrows(SettingsException.class, executable);
    assertTrue(thrown.getMessage().contains(message), thrown.getMessage());
  }
}
