package couchbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three short MemGet runs on a real memcached, gated: the second, through a forwarder that holds each reply 5 ms,
 * against the first, which it regressed against (it ends with the gate's exit code and a line naming p99); the third,
 * direct again and of the same parameters, against the second, which it does not regress against (it passes, and
 * says so); the history of the three.
 */
class RegressionGateIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @TempDir
  Path history;

  @Test
  void shouldFailTheRunWhoseP99RegressedAndPassTheOneThatDidNotAndKeepAllThreeInTheHistory() throws Exception {
    Path keyFile = history.resolve("keys.csv");
    try (MemcachedServer memcached = MemcachedServer.start(); Forwarder slow = Forwarder.start(memcached.port())) {
      // 5 ms, not the 2 ms a fast machine would do: on 2 shared cores a direct run's own p99 reaches 1-2 ms.
      slow.delay(Duration.ofMillis(5));
      Map<String, String> load = Map.of("users", "2", "duration", "3", "warmup", "1", "keyFile", keyFile.toString());
      Map<String, String> direct = with(load, "memcache.servers", memcached.address());
      assertEquals(0, GatlingRun.run("MemSet", direct, TIMEOUT).exitCode());
      GatlingRun.Result first = GatlingRun.run("MemGet", direct, TIMEOUT);
      assertEquals(0, first.exitCode(), first.why());

      Map<String, String> gated = with(with(load, "memcache.servers", slow.address()), "baseline",
          first.requireRunFolder().toString());
      GatlingRun.Result second = GatlingRun.run("MemGet", with(gated, "regression", "p99:100%"), TIMEOUT);

      assertEquals(Gate.REGRESSED, second.exitCode(), second.why());
      assertTrue(second.output().contains("couchbench: regression gate: REGRESSED p99 of memcache get: "),
          second.output());
      assertTrue(second.output().contains("the verdict rests on one measurement of each run"), second.output());
      assertFalse(second.output().contains("\tat "), "no stack trace: " + second.output());
      assertTrue(Files.readString(second.requireRunFolder().resolve("summary.html")).contains(
          "Regression gate against " + first.requireRunFolder() + ": 1 of 1 figures regressed"));

      // The same load and threshold against a baseline it is faster than: a gate that always said REGRESSED fails here.
      GatlingRun.Result third = GatlingRun.run("MemGet", with(with(direct, "baseline",
          second.requireRunFolder().toString()), "regression", "p99:100%"), TIMEOUT);

      assertEquals(0, third.exitCode(), third.why());
      assertTrue(third.output().contains("couchbench: regression gate: passed against " + second.requireRunFolder()),
          third.output());
      assertFalse(third.output().contains("REGRESSED"), third.output());
      assertTrue(Files.readString(third.requireRunFolder().resolve("summary.html")).contains(
          "Regression gate against " + second.requireRunFolder() + ": passed."));
      assertTrue(Files.readString(third.requireRunFolder().resolve(Gate.VERDICT)).startsWith("passed against "));

      for (GatlingRun.Result run : List.of(first, second, third)) {
        Path folder = Files.createDirectories(history.resolve(run.requireRunFolder().getFileName()));
        Files.copy(run.requireRunFolder().resolve(ResultsFile.NAME), folder.resolve(ResultsFile.NAME));
      }
      History.write(history);
      List<String> runs = Files.readAllLines(history.resolve("history/the-runs.csv"));
      assertEquals(4, runs.size(), runs.toString());
      assertTrue(runs.stream().skip(1).allMatch(row -> row.contains(",MemGet,") && row.contains(",1,,")),
          "one parameter set: the gate's own settings do not split it: " + runs);
    }
  }

  private static Map<String, String> with(Map<String, String> properties, String name, String value) {
    Map<String, String> with = new HashMap<>(properties);
    with.put(name, value);
    return with;
  }
}
