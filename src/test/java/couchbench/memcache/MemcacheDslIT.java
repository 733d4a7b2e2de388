package couchbench.memcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.targets.MemcachedServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every memcache DSL method once, in a real Gatling run against a real memcached. */
class MemcacheDslIT {

  @Test
  void shouldRunEveryDslMethodAndReportEachRequestLikeGatlingDoesHttp() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = GatlingRun.run(MemcacheDslSimulation.class.getName(),
          Map.of("memcache.servers", memcached.address()), Duration.ofMinutes(2));

      assertEquals(0, run.exitCode(), run.why());
      Path folder = run.requireRunFolder();
      Map<String, GatlingReport.Counts> requests = GatlingReport.requestsFailingOnlyWhereNamedKo(folder);
      assertEquals(new GatlingReport.Counts(2, 2, 0), requests.get("cas"));
      assertEquals(new GatlingReport.Counts(4, 4, 0), requests.get("pooled get"));
      assertEquals(new GatlingReport.Counts(4, 0, 4), requests.get("tryMax (KO)"), "two users, two tries");
      assertFalse(requests.containsKey("after exitHereIfFailed (never sent)"), requests.keySet().toString());
      assertTrue(requests.containsKey("named by function"), requests.keySet().toString());
      assertEquals(new GatlingReport.Counts(160, 160, 0), requests.get("pipelined get"), "8 users, 20 rounds");
      // A pipelined action: every request reported once, each reply checked against its own request's key.
      assertEquals(new GatlingReport.Counts(40, 40, 0), requests.get("batched set"), "5 rounds of 8");
      assertEquals(new GatlingReport.Counts(40, 40, 0), requests.get("batched get"), "5 rounds of 8, in order");
      assertEquals(new GatlingReport.Counts(1, 0, 1), requests.get("bad key in a batch (KO)"));
      assertEquals(new GatlingReport.Counts(7, 7, 0), requests.get("batched get beside a bad key"));
      assertEquals(new GatlingReport.Counts(1, 1, 0), requests.get("pipelined at depth 1"));
      assertEquals(new GatlingReport.Counts(1, 1, 0), requests.get("after depth 1"), "the depth-1 check's save kept");
      assertEquals(49, requests.size(), requests.keySet().toString());
      // Every request of the pipelined scenario went to its timings: 8 users, 20 rounds of a set and a get.
      assertTrue(run.output().contains("memcache DSL: timings of 320 requests recorded"), run.output());
      // Up to 4 users on a connection of one event loop: 2 to 8 connections for 8 users, none dropped.
      assertTrue(Pattern.compile("memcache DSL: pipelined users' connections: [2-8] opened, 0 dropped")
          .matcher(run.output()).find(), run.output());

      Map<String, Long> errors = GatlingReport.errors(folder);
      assertEquals(Long.valueOf(6), errors.get("NOT_FOUND"), errors.toString());
      assertEquals(Long.valueOf(3), errors.get("invalid key: key contains whitespace or control characters"),
          errors.toString());
      assertEquals(2, errors.size(), errors.toString());
    }
  }
}
