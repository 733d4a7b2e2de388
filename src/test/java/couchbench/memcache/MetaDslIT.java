package couchbench.memcache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.targets.MemcachedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every meta-protocol DSL method once, in a real Gatling run against a real memcached 1.6, which counts as Gatling. */
class MetaDslIT {

  private static final int QUIET = MetaDslSimulation.BATCH * MetaDslSimulation.BATCHES;

  @Test
  void shouldRunEveryMetaDslMethodAndLeaveMemcachedsCountsEqualToGatlings() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = GatlingRun.run(MetaDslSimulation.class.getName(),
          Map.of("memcache.servers", memcached.address()), Duration.ofMinutes(2));

      assertEquals(0, run.exitCode(), run.why());
      Path folder = run.requireRunFolder();
      Map<String, GatlingReport.Counts> requests = GatlingReport.requestsFailingOnlyWhereNamedKo(folder);
      assertEquals(new GatlingReport.Counts(QUIET, QUIET, 0), requests.get("quiet ms"));
      assertEquals(new GatlingReport.Counts(QUIET, QUIET, 0), requests.get("quiet mg hit"));
      assertEquals(new GatlingReport.Counts(QUIET, QUIET, 0), requests.get("quiet mg miss"));
      assertEquals(new GatlingReport.Counts(4, 4, 0), requests.get("quiet replace"));
      assertEquals(new GatlingReport.Counts(4, 0, 4), requests.get("quiet replace missing (KO)"));
      assertEquals(30, requests.size(), requests.keySet().toString());
      Map<String, Long> errors = GatlingReport.errors(folder);
      assertEquals(Map.of("EN", 1L, "NF", 1L, "NS", 4L, "invalid key: key longer than 186 bytes (250 in base64)", 1L,
          "invalid key: key contains whitespace or control characters", 1L), errors);

      // memcached counted what Gatling sent: every mg, every ms (replaces and stale cas included), ma and md.
      Map<String, String> stats = MemcachedStats.of(memcached.port());
      long gets = sum(requests, "mg all flags", "mg function", "mg hit, no value", "mg miss (KO)", "mg miss, missOk",
          "mg base64 key", "quiet mg hit", "quiet mg miss");
      long sets = sum(requests, "ms", "ms compareCas", "ms stale cas", "ms append", "ms function", "ms base64 key",
          "ms counter", "quiet ms", "quiet replace", "quiet replace missing (KO)");
      assertEquals(String.valueOf(gets), stats.get("cmd_get"), stats.toString());
      assertEquals(String.valueOf(2 + QUIET), stats.get("get_misses"), "mg miss twice, and the quiet misses");
      assertEquals(String.valueOf(sets), stats.get("cmd_set"), stats.toString());
      assertEquals(String.valueOf(sum(requests, "ms compareCas")), stats.get("cas_hits"), "ma's C is no cas hit");
      assertEquals(String.valueOf(sum(requests, "ms stale cas")), stats.get("cas_badval"), stats.toString());
      assertEquals(String.valueOf(sum(requests, "ma", "ma compareCas")), stats.get("incr_hits"), stats.toString());
      assertEquals(String.valueOf(sum(requests, "ma miss (KO)")), stats.get("incr_misses"), stats.toString());
      assertEquals(String.valueOf(sum(requests, "ma function")), stats.get("decr_hits"), stats.toString());
      assertEquals(String.valueOf(sum(requests, "md")), stats.get("delete_hits"), stats.toString());
      assertEquals(String.valueOf(sum(requests, "md miss, missOk", "md compareCas stale")), stats.get("delete_misses"),
          "a stale cas counts as a delete miss");
      assertEquals(String.valueOf(sum(requests, "me", "me function, missOk")), stats.get("cmd_meta"), stats.toString());
    }
  }

  private static long sum(Map<String, GatlingReport.Counts> requests, String... names) {
    long total = 0;
    for (String name : names) {
      total += requests.get(name).total();
    }
    return total;
  }
}
