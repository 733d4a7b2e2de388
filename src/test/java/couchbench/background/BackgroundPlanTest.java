package couchbench.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BackgroundPlanTest {

  @Test
  void shouldReadTheTasksInTurnWithTheirTimes() {
    BackgroundPlan plan = BackgroundPlan.from(Settings.of(Map.of("background", "compact, ViewBuild",
        "backgroundAt", "5"), Map.of())).orElseThrow();

    assertEquals(List.of(BackgroundPlan.Kind.COMPACT, BackgroundPlan.Kind.VIEWBUILD), plan.tasks());
    assertEquals(Duration.ofSeconds(5), plan.firstAt());
    assertEquals(Duration.ofSeconds(300), plan.timeout());
    assertEquals("compact, then viewbuild; the first 5 s into the steady load, each next 10 s after the last ended; each"
        + " followed for at most 300 s", plan.describe());
    assertTrue(BackgroundPlan.from(Settings.of(Map.of(), Map.of())).isEmpty());
    assertTrue(plan.loadAfter().isEmpty(), "the load runs its -Dduration");
  }

  @Test
  void shouldEndTheLoadTheSecondsOfBackgroundAfterPastTheLastTask() {
    BackgroundPlan plan = BackgroundPlan.from(Settings.of(Map.of("background", "nodesync", "backgroundAfter", "3"),
        Map.of())).orElseThrow();

    assertEquals(Duration.ofSeconds(3), plan.loadAfter().orElseThrow());
    assertTrue(plan.describe().endsWith("; the load ends 3 s after the last ended"), plan.describe());
    assertThrows(SettingsException.class, () -> BackgroundPlan.from(Settings.of(Map.of("background", "compact",
        "backgroundAfter", "soon"), Map.of())));
  }

  @Test
  void shouldTellTheCachesTaskFromCouchDbs() {
    BackgroundPlan cold = BackgroundPlan.from(Settings.of(Map.of("background", "restart-cache"), Map.of()))
        .orElseThrow();
    assertEquals(List.of(BackgroundPlan.Kind.RESTART_CACHE), cold.tasks());
    assertTrue(cold.emptiesTheCache());
    assertFalse(cold.worksOnCouchDb());
    BackgroundPlan both = BackgroundPlan.from(Settings.of(Map.of("background", "compact,restart-cache"), Map.of()))
        .orElseThrow();
    assertTrue(both.emptiesTheCache());
    assertTrue(both.worksOnCouchDb());
  }

  @Test
  void shouldRefuseATaskItDoesNotKnowInOneLine() {
    assertEquals("-Dbackground=compact,reindex: 'reindex' is not a background task here; give compact, viewbuild,"
        + " replicate, nodesync or restart-cache, or several in turn: -Dbackground=compact,viewbuild",
        assertThrows(SettingsException.class,
            () -> BackgroundPlan.from(Settings.of(Map.of("background", "compact,reindex"), Map.of()))).getMessage());
  }
}
