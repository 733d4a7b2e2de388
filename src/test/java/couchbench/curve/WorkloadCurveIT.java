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
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Workload's staircase against real servers: a search for the highest rate meeting p99 < 50 ms on memcached, direct and
 * through a forwarder that holds each reply 10 ms (the rate found falls to what 4 threads can offer at that latency);
 * through the same forwarder, a goal of p99 < 5 ms that steps reaching their rate miss, and no rate found.
 * A fixed staircase's points are CouchGet's (CouchSetCouchGetIT), split over injectors CouchSet's (ScaleOutIT).
 */
class WorkloadCurveIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  // Each step settles the default 3 s: after 1 s, a CI run's first direct step (100/s) missed its p99 while the
  // forked JVM was still compiling its hot paths. The goal leaves 40 ms over the 10 ms hold: with 25 ms, the first step
  // through the forwarder (100/s) missed it at 26-27 ms here and in CI (7% of its starts late by more than 2 ms, the
  // injector's warm-up), where 4 threads' capacity, which this test is about, was nowhere near.
  private static final Map<String, String> SEARCH = Map.of("system", "memcache", "workload", "c", "records", "200",
      "threads", "4", "targets", "auto", "sla", "p99<50ms", "startRate", "100", "maxSteps", "4", "settleSeconds",
      "3", "stepSeconds", "2");

  @Test
  void shouldFindALowerRateUnderTheGoalWhenEachReplyIsHeld10Ms() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start(); Forwarder farther = Forwarder.start(memcached.port())) {
      farther.delay(Duration.ofMillis(10));
      JsonNode direct = searched(search(memcached.address()));
      JsonNode delayed = searched(search(farther.address()));
      double directRate = direct.path("highestRate").asDouble();
      double delayedRate = delayed.path("highestRate").asDouble();

      // 4 threads, each one operation at a time, each over 10 ms: at most 400 operations a second.
      assertTrue(delayedRate <= 400, "at most threads / latency: " + steps(delayed));
      assertTrue(delayedRate >= 100, "the first step, 100/s, is within reach at 10 ms: " + steps(delayed));
      assertTrue(directRate >= 400, "direct, the rate 4 threads cannot offer at 10 ms is met: " + steps(direct)
          + " against " + steps(delayed) + " through the forwarder");
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
    assertEquals(0, run.exitCode(), run.why());
    return run;
  }

  /** @return the search's figures, which found a rate that met the goal and said so at the top of its page */
  private static JsonNode searched(GatlingRun.Result run) throws Exception {
    JsonNode memcache = figures(run).path("systems").get(0);
    assertTrue(memcache.path("highestRate").isNumber(), "a rate met the goal: " + steps(memcache));
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("operations/s is the highest rate asked that was met (90% of it or more"),
        "said at the top");
    return memcache;
  }

  // Each step's rate asked, its p99 from the intended start and its late starts, then the rate found.
  private static String steps(JsonNode system) {
    StringBuilder steps = new StringBuilder();
    for (JsonNode step : system.path("steps")) {
      steps.append(String.format(Locale.ROOT, "%.0f/s p99 %.1f ms late %d; ", step.path("target").asDouble(),
          step.path("atGoalMicros").asDouble() / 1000, step.path("late").asLong()));
    }
    return steps + "highest " + system.path("highestRate");
  }

  private static JsonNode figures(GatlingRun.Result run) throws Exception {
    Path results = run.requireRunFolder().resolve("results.json");
    return JSON.readTree(results.toFile()).path("figures");
  }
}
