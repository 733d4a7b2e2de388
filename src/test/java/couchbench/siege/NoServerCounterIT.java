package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MemSet then MemGet against a memcache server whose stats lack cmd_set ({@link NoCmdSetProxy} in front of memcached):
 * both run, and MemSet's server count is n/a with its reason, in one console line, results.json and the page. Two
 * Gatling runs of 2 s of load each, 14 s here.
 */
class NoServerCounterIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void shouldRunMemSetAndMemGetAndSayTheServerCountIsNotAvailable() throws Exception {
    Path keyFile = KeyFiles.fresh("no-cmd_set");
    try (MemcachedServer memcached = MemcachedServer.start();
        NoCmdSetProxy proxy = new NoCmdSetProxy(memcached.port())) {
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", proxy.address(), "users", "2",
          "duration", "2", "warmup", "0", "valueSize", "50", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      String why = "memcache server " + proxy.address() + " reports no cmd_set";
      assertTrue(set.output().contains("couchbench: server count: memcache cmd_set n/a (" + why + "): the run goes on"),
          set.output());
      Results.ServerCount count = ResultsFile.read(set.requireRunFolder()).serverCounts().get(0);
      assertEquals(why, count.notCounted());
      assertNull(count.before());
      assertEquals(KeyFiles.written(keyFile).size(), count.acknowledged(), "the sets acknowledged, all of them keys");
      assertEquals(count.acknowledged(), MemcachedStats.count(memcached.port(), "cmd_set"),
          "what memcached behind the proxy counted: the check the proxy's stats could not give");
      String page = Files.readString(set.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Server count: memcache cmd_set n/a (" + why + "): the server&#39;s count is not"
          + " checked against " + count.acknowledged() + " acknowledged"), page);
      assertFalse(page.contains("DIFFER"), "n/a is no disagreement");

      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", proxy.address(), "users", "2",
          "duration", "2", "warmup", "0", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, get.exitCode(), get.why());
      GatlingReport.Counts gets = GatlingReport.requests(get.requireRunFolder()).get("memcache get");
      assertTrue(gets.ok() > 0 && gets.ko() == 0, gets.toString());
    }
  }
}
