package couchbench.trend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.SettingsException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TrendPlanTest {

  @Test
  void shouldReadEachSeriesAndItsThreshold() {
    TrendPlan plan = TrendPlan.parse(Optional.of("rss:+5%/h, p99:12.5%/h")).orElseThrow();

    assertEquals(List.of(new TrendPlan.Rule("rss", 5), new TrendPlan.Rule("p99", 12.5)), plan.rules());
    assertTrue(plan.rules().get(0).covers("memcached resident memory (MB)"));
    assertTrue(plan.rules().get(1).covers("p99 per minute (ms)"));
    assertTrue(!plan.rules().get(1).covers("p99 (ms)"), "a minute's p99, not a second's of a few requests");
    assertTrue(!plan.rules().get(1).covers("notification p99 per minute (ms)"), "the load's requests' p99 only");
  }

  @Test
  void shouldJudgeTheLoadGeneratorsHeapAfterGarbageCollection() {
    TrendPlan.Rule heap = TrendPlan.parse(Optional.of("heap:+5%/h")).orElseThrow().rules().get(0);

    assertTrue(heap.covers("load generator heap after GC (MB)"));
    assertTrue(!heap.covers("load generator heap (MB)"), "the heap in use at a second's end has GC's sawtooth");
  }

  @Test
  void shouldTellTheCountsOfACouchDbNodeApart() {
    TrendPlan plan = TrendPlan.parse(Optional.of("processes:+5%/h,databases:+5%/h,files:+5%/h,stored:+5%/h"))
        .orElseThrow();

    List<String> columns = List.of("couchdb erlang processes (count)", "couchdb 127.0.0.1:15984 open databases (count)",
        "couchdb open files (count)", "memcache stored (MB)");
    for (int rule = 0; rule < columns.size(); rule++) {
      for (int column = 0; column < columns.size(); column++) {
        assertEquals(rule == column, plan.rules().get(rule).covers(columns.get(column)),
            plan.rules().get(rule) + " and " + columns.get(column));
      }
    }
  }

  @Test
  void shouldBeOffWithoutTheSetting() {
    assertEquals(Optional.empty(), TrendPlan.parse(Optional.empty()));
  }

  @Test
  void shouldRefuseAnUnknownSeriesNamingTheKnownOnes() {
    SettingsException refused = assertThrows(SettingsException.class,
        () -> TrendPlan.parse(Optional.of("rss:+5%/h,cpu:+5%/h")));

    assertEquals("-Dtrend=rss:+5%/h,cpu:+5%/h: no series 'cpu': give one of rss, erlang, processes, databases,"
        + " files, queued, heap, stored, connections, p99", refused.getMessage());
  }

  @Test
  void shouldRefuseAThresholdThatDoesNotParse() {
    for (String value : List.of("rss:5", "rss:+5%", "rss:-5%/h", "rss", "")) {
      SettingsException refused = assertThrows(SettingsException.class, () -> TrendPlan.parse(Optional.of(value)),
          value);
      assertTrue(refused.getMessage().contains("is not SERIES:+N%/h: give e.g. -Dtrend=rss:+5%/h,p99:+10%/h"),
          refused.getMessage());
    }
  }
}
