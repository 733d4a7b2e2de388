package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Workload's staircase against real servers: a search for the highest rate meeting p99 < 25 ms on memcached, direct and
 * through a forwarder that holds each reply 10 ms (the rate found falls to what 4 threads can offer at that latency);
 * through the same forwarder, a goal of p99 < 5 ms that steps reaching their rate miss, and no rate found.
 * A fixed staircase's points are CouchGet's (CouchSetCouchGetIT), split over injectors CouchSet's (ScaleOutIT).
 */
class WorkloadCurveIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  // Each step settles the default 3 s: after 1 s, a CI run's first direct step (100/s) missed its p99 while the
  // forked JVM was still compiling its hot paths.
  private static final Map<String, String> SEARCH = Map.of("system", "memcache", "workload", "c", "records", "200",
      "threads", "4", "targets", "auto", "sla", "p99<25ms", "startRate", "100", "maxSteps", "4", "settleSeconds",
      "3", "stepSeconds", "2");

  @Test
  void shouldFindALowerRateUnderTheGoalWhenEachReplyIsHeld10Ms() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start(); Forwarder farther = Forwarder.start(memcached.port())) {
      farther.delay(Duration.ofMillis(10));
      double direct = highestRate(search(memcached.address()));
      double delayed = highestRate(search(farther.address()));

      // 4 threads, each one operation at a time, each over 10 ms: at most 400 operations a second.
      assertTrue(delayed <= 400, "at most threads / latency: " + delayed);
      assertTrue(delayed >= 100, "the first step, 100/s, is within reach at 10 ms: " + delayed);
      assertTrue(direct >= 400, "direct, the rate 4 threads cannot offer at 10 ms is met: " + direct + " against "
          + delayed + " through the forwarder");
    }
  }

  @Test
  void shouldMeetNoStepThatReachesItsRateButMissesTheP99OfTheGoal() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start(); Forwarder farther = Forwarder.start(memcached.port())) {
      farther.delay(Duration.ofMillis(10));
      // 100/s and then 50/s are well within what 4 threads offer at 10 ms (400/s), but no reply comes within 5 ms: a
      // search that ignored -Dsla would meet the first step.
      JsonNode memcache = figures(search(farther.address(), Map.of("sla", "p99<5ms", "maxSteps", "2")))
          .path("systems").get(0);

      JsonNode steps = memcache.path("steps");
      assertEquals(2, steps.size(), steps.toString());
      assertEquals(List.of(100.0, 50.0), List.of(steps.get(0).path("target").asDouble(),
          steps.get(1).path("target").asDouble()), "the search halves its rate after a step that missed: " + steps);
      for (JsonNode step : steps) {
        assertTrue(step.path("achieved").asDouble() >= 0.9 * step.path("target").asDouble(), "its rate reached: " + step);
        assertEquals(0, step.path("failed").asLong(), step.toString());
        assertTrue(step.path("atGoalMicros").asDouble() >= 10_000, "p99 past the 10 ms each reply is held: " + step);
        assertFalse(step.path("met").asBoolean(), "the p99 missed the goal's 5 ms: " + step);
      }
      assertTrue(memcache.path("highestRate").isNull() || memcache.path("highestRate").isMissingNode(),
          "no rate met the goal: " + memcache);
    }
  }

  private static GatlingRun.Result search(String memcache) throws Exception {
    return search(memcache, Map.of());
  }

  private static GatlingRun.Result search(String memcache, Map<String, String> more) throws Exception {
    Map<String, String> properties = new HashMap<>(SEARCH);
    properties.put("memcache.servers", memcache);
    properties.putAll(more);
    GatlingRun.Result run = GatlingRun.run("Workload", properties, TIMEOUT);
    assertEquals(0, run.exitCode(), run.output());
    return run;
  }

  private static double highestRate(GatlingRun.Result run) throws Exception {
    JsonNode memcache = figures(run).path("systems").get(0);
    assertTrue(memcache.path("highestRate").isNumber(), "a rate met the goal: " + memcache.path("steps"));
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("operations/s is the highest rate asked that was met (90% of it or more"),
        "said at the top");
    return memcache.path("highestRate").asDouble();
  }

  private static JsonNode figures(GatlingRun.Result run) throws Exception {
    Path results = run.requireRunFolder().resolve("results.json");
    return JSON.readTree(results.toFile()).path("figures");
  }
}
