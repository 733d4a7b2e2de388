package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.rounds.Rounds;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ViewQueryPlanTest {

  @Test
  void shouldDefaultToTheSeedsHttperfCommand() {
    ViewQueryPlan plan = plan(Map.of());

    assertEquals("/todo/_design/todo/_view/list", plan.path());
    assertEquals(ViewQueryPlan.SEED_MAP, plan.design().map());
    assertEquals(150.0, plan.rate());
    assertEquals(27000, plan.conns());
    assertEquals(1, plan.callsPerConn());
    assertEquals(Duration.ofSeconds(180), plan.duration());
    assertEquals(2, plan.expectedRows());
    assertTrue(plan.setup());
    assertFalse(plan.fresh());
    assertEquals(Rounds.ONCE, plan.rounds());
  }

  @Test
  void shouldSetUpAFreshDatabaseOrNoneWhenAsked() {
    assertTrue(plan(Map.of("setup", "fresh")).setup());
    assertTrue(plan(Map.of("setup", " Fresh")).fresh());
    assertFalse(plan(Map.of("setup", "false")).setup());
    assertFalse(plan(Map.of("setup", "false")).fresh());
  }

  @Test
  void shouldWarnOnlyWhenConnsOverRateIsUnderTwoSeconds() {
    assertEquals(Optional.empty(), plan(Map.of()).lengthWarning(), "the seed's 180 s");
    assertEquals(Optional.empty(), plan(Map.of("rate", "20", "conns", "40")).lengthWarning(), "2 s: enough");
    assertEquals(Optional.of("the load lasts 1.95 s (39 connections at 20/s), under the 2 s a figure should rest on:"
        + " raise -Dconns or lower -Drate"), plan(Map.of("rate", "20", "conns", "39")).lengthWarning());
    // Each injector's share lasts as long as the whole: conns and rate are both shared.
    assertEquals(Optional.empty(), plan(Map.of("rate", "20", "conns", "40", "injector", "1/2")).lengthWarning());
    ViewQueryPlan rounds = plan(Map.of("rate", "150", "conns", "150", "rounds", "3"));
    assertEquals(3, rounds.rounds().count());
    assertTrue(rounds.lengthWarning().orElseThrow().startsWith("the load of each round lasts 1.00 s"),
        rounds.lengthWarning().toString());
    assertTrue(rounds.describe().endsWith(", 3 rounds one after the other"), rounds.describe());
  }

  @Test
  void shouldTakeThisInjectorsShareOfRateAndConnections() {
    ViewQueryPlan first = plan(Map.of("rate", "150", "conns", "1001", "injector", "0/2"));
    ViewQueryPlan second = plan(Map.of("rate", "150", "conns", "1001", "injector", "1/2"));
    ViewQueryPlan byHttperfsName = plan(Map.of("rate", "150", "conns", "1001", "client", "1/2"));

    assertEquals(75.0, first.rate());
    assertEquals(501, first.conns());
    assertEquals(500, second.conns());
    assertEquals(1001, first.conns() + second.conns(), "the shares add up to the total");
    assertEquals(second, byHttperfsName, "-Dclient is another name for -Dinjector");
  }

  @Test
  void shouldInjectOverWholeSeconds() {
    ViewQueryPlan plan = plan(Map.of("rate", "20", "conns", "100"));
    ViewQueryPlan rounded = plan(Map.of("rate", "2", "conns", "3"));

    assertEquals(Duration.ofSeconds(5), plan.duration());
    assertEquals(20.0, plan.effectiveRate());
    assertEquals(Duration.ofSeconds(2), rounded.duration());
    assertTrue(rounded.describe().contains("rounded"), rounded.describe());
  }

  @Test
  void shouldRefuseUnusableParametersWithOneLineNamingThem() {
    Map<Map<String, String>, String> refused = Map.of(
        Map.of("rate", "0"), "-Drate=0 is too small (expected > 0",
        Map.of("rate", "fast"), "-Drate=fast is not a number",
        Map.of("conns", "0"), "-Dconns=0 is too small (expected >= 1)",
        Map.of("callsPerConn", "0"), "-DcallsPerConn=0 is too small (expected >= 1)",
        Map.of("injector", "2/2"), "-Dinjector=2/2 is not I/N with 0 <= I < N",
        Map.of("client", "1"), "-Dclient=1 is not I/N",
        Map.of("injector", "0/2", "client", "1/2"), "-Dinjector=0/2 and -Dclient=1/2 disagree",
        Map.of("conns", "1", "injector", "1/2"), "-Dconns=1 leaves nothing to injector 1/2",
        Map.of("database", "Todo"), "-Ddatabase=Todo is not a valid CouchDB database name",
        Map.of("setup", "yes"), "-Dsetup=yes: give true (create what is missing), fresh (drop the database first");
    refused.forEach((properties, message) -> {
      SettingsException e = assertThrows(SettingsException.class, () -> plan(properties));
      assertTrue(e.getMessage().startsWith(message), e.getMessage());
    });
  }

  private static ViewQueryPlan plan(Map<String, String> properties) {
    return ViewQueryPlan.from(Settings.of(properties, Map.of()));
  }
}
