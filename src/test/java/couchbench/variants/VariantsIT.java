package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.history.Gate;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * -Dvariants against a real memcached, MemGet's rounds each a run of its own: a variant compared with itself (an A/A
 * run) is found no different, and one whose server is behind a forwarder that delays every reply by 3 ms is found
 * worse, and fails -Dregression.
 */
class VariantsIT {

  private static final Duration STALL = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static MemcachedServer memcached;
  private static Path keyFile;

  @BeforeAll
  static void keysSet() throws Exception {
    memcached = MemcachedServer.start();
    keyFile = Files.createDirectories(Path.of("target", "it-keys")).resolve("variants-" + System.nanoTime() + ".csv")
        .toAbsolutePath();
    GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(), "users", "2",
        "duration", "1", "warmup", "0", "keyFile", keyFile.toString()), STALL);
    assertEquals(0, set.exitCode(), set.why());
  }

  @AfterAll
  static void stop() {
    memcached.close();
  }

  private static Map<String, String> gets(String variants, String rounds) {
    Map<String, String> properties = new HashMap<>(Map.of("memcache.servers", memcached.address(), "users", "2",
        "duration", "1", "warmup", "0", "keyFile", keyFile.toString(), "variants", variants, "rounds", rounds));
    return properties;
  }

  /** The figure of "memcache get" that variants.json judges, e.g. "p50". */
  private static JsonNode figure(JsonNode variants, String figure) {
    for (JsonNode judged : variants.path("figures")) {
      if (judged.path("of").asText().equals("memcache get") && judged.path("figure").asText().equals(figure)) {
        return judged;
      }
    }
    throw new AssertionError("no " + figure + " of memcache get in " + variants);
  }

  @Test
  void shouldFindNoDifferenceBetweenAVariantAndItselfOnTheFiguresItChecks() throws Exception {
    // 8 rounds each: noise alone puts one figure's rounds apart with a chance of 2 / C(16, 8) = 1 in 6,435; over the
    // two figures checked, at most 1 in 3,218.
    GatlingRun.Result run = GatlingRun.run("MemGet", gets("a;b", "8"), STALL);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode variants = JSON.readTree(run.requireRunFolder().resolve(VariantsReport.FILE).toFile());
    List<String> order = new ArrayList<>();
    variants.path("order").forEach(slot -> order.add(slot.path("variant").asText()));
    assertEquals(List.of("a", "b", "b", "a", "a", "b", "b", "a", "a", "b", "b", "a", "a", "b", "b", "a"), order);
    for (String name : List.of("throughput", "p50")) {
      JsonNode b = figure(variants, name).path("byVariant").get(1);
      assertEquals(8, b.path("rounds").size(), name);
      assertEquals("same", b.path("verdict").asText(), name + " of an A/A run: " + figure(variants, name));
      assertEquals(1.0 / 6435, b.path("chanceByNoise").asDouble(), 1e-9);
    }
  }

  @Test
  void shouldFindAVariantWhoseRepliesAre3msLaterWorseOnP50AndThroughputAndGateIt() throws Exception {
    try (Forwarder slow = Forwarder.start(memcached.port())) {
      slow.delay(Duration.ofMillis(3));
      Map<String, String> properties = gets("direct:memcache.servers=" + memcached.address() + ";slow:memcache.servers="
          + slow.address(), "3");
      properties.put("regression", "throughput:5%");

      GatlingRun.Result run = GatlingRun.run("MemGet", properties, STALL);

      assertEquals(Gate.REGRESSED, run.exitCode(), "the gate fails the slow variant\n" + run.output());
      assertTrue(run.output().contains("variant slow against direct: worse p50 of memcache get"), run.output());
      assertTrue(run.output().contains("variant slow against direct: REGRESSED throughput of memcache get"),
          run.output());
      Path folder = run.requireRunFolder();
      JsonNode variants = JSON.readTree(folder.resolve(VariantsReport.FILE).toFile());
      for (String name : List.of("throughput", "p50")) {
        assertEquals("worse", figure(variants, name).path("byVariant").get(1).path("verdict").asText(), name);
      }
      assertTrue(figure(variants, "p50").path("byVariant").get(1).path("rounds").get(0).asDouble() >= 3000,
          "each get waited the forwarder's 3 ms: " + figure(variants, "p50"));
      // Each round is a run of its own whose results name its variant, which History keeps apart.
      JsonNode slowRuns = variants.path("variants").get(1).path("runs");
      assertEquals(3, slowRuns.size());
      Path round = folder.resolveSibling(slowRuns.get(0).asText());
      Map<String, String> parameters = ResultsFile.read(round.resolve(ResultsFile.NAME)).run().parameters();
      assertEquals("slow", parameters.get("variant"));
      assertEquals("memcache.servers=" + slow.address(), parameters.get("variant.settings"));
      assertEquals("1", parameters.get("rounds"));
      String page = Files.readString(folder.resolve("summary.html"));
      assertTrue(page.contains("Verdicts against direct"), page);
      assertTrue(page.contains("slow, round 3"), "a link to each round's run");
    }
  }

  @Test
  void shouldRefuseACouchDbSettingOfAServerWithoutConfigInOneLine() throws Exception {
    try (PouchDbServer pouchdb = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.run("BulkInsert", Map.of("couchdb.url", pouchdb.url(), "batchSizes", "8",
          "threads", "1", "docs", "16", "single", "false", "variants",
          "a:config.couchdb.max_dbs_open=100;b:config.couchdb.max_dbs_open=200"), STALL);

      run.assertStoppedBeforeLoad("config.<section>.<key> variants need an Apache CouchDB 3.x server, whose settings"
          + " that API reads and changes (pouchdb-server has none)");
    }
  }
}
