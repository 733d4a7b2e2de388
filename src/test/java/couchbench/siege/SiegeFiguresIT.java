package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.requests.MemcacheRequests;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Siege's figures from real runs' results.json, against the counts of Gatling's own report. */
class SiegeFiguresIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final int USERS = 4;
  private static final int SECONDS = 3;

  @Test
  void shouldAgreeWithGatlingsReportForPassedAndFailedRequests() throws Exception {
    Path keys = KeyFiles.fresh("figures");
    Path unknownKeys = keys.resolveSibling("unknown-" + keys.getFileName());
    Files.write(unknownKeys, List.of("key", "never-set-1", "never-set-2"));
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", String.valueOf(USERS), "duration", String.valueOf(SECONDS), "warmup", "0",
          "keyFile", keys.toString()), TIMEOUT);
      assertEquals(0, set.exitCode(), set.why());
      Path setRun = set.requireRunFolder();
      SiegeFigures sets = SiegeFigures.of(ResultsFile.read(setRun), "request").get(MemcacheRequests.SET);
      GatlingReport.Counts reported = GatlingReport.requests(setRun).get(MemcacheRequests.SET);

      assertEquals(reported.ok(), sets.transactions(), "transactions = Gatling's OK");
      assertEquals(0, sets.failed());
      assertEquals(100.0, sets.availabilityPercent());
      assertTrue(sets.elapsedSeconds() > SECONDS - 0.5 && sets.elapsedSeconds() < SECONDS + 2, sets.toString());
      assertEquals(sets.transactions() / sets.elapsedSeconds(), sets.transactionRate(), 1e-9);
      assertTrue(sets.concurrency() >= 0 && sets.concurrency() <= USERS, "at most every user in flight: " + sets);
      assertTrue(sets.shortestSeconds() <= sets.responseTimeSeconds()
          && sets.responseTimeSeconds() <= sets.longestSeconds(), sets.toString());

      // Every get misses: failed requests, each with a failure message in the log.
      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "1", "warmup", "0", "keyFile", unknownKeys.toString()), TIMEOUT);
      assertEquals(2, get.exitCode(), "the no-failure assertion fails\n" + get.output());
      SiegeFigures gets = SiegeFigures.of(ResultsFile.read(get.requireRunFolder()), "request")
          .get(MemcacheRequests.GET);
      GatlingReport.Counts getsReported = GatlingReport.requests(get.requireRunFolder()).get(MemcacheRequests.GET);

      assertEquals(0, gets.transactions());
      assertEquals(getsReported.ko(), gets.failed(), "failed = Gatling's KO");
      assertTrue(gets.failed() > 0);
      assertEquals(0.0, gets.availabilityPercent());
      assertTrue(Double.isNaN(gets.responseTimeSeconds()), "no transaction, no response time");
    }
  }
}
