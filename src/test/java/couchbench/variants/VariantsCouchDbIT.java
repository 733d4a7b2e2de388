package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.RealCouchDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A CouchDB setting as variants on a real Apache CouchDB 3.5 node: each variant's value applied through _config before
 * its rounds and read back, and the original restored after the run, after Ctrl-C, and (from the restore file) by the
 * next run after a kill -9. And two nodes as two variants' servers, each loaded only in its variant's rounds.
 */
class VariantsCouchDbIT {

  private static final Duration STALL = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SETTING = "/_node/_local/_config/couchdb/max_dbs_open";
  private static final String NONE = "(none)";
  private static final String VARIANTS = "small:config.couchdb.max_dbs_open=123;large:config.couchdb.max_dbs_open=4567";

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  /** BulkInsert's smallest sweep: one step of docs documents, so that a round takes a few seconds. */
  private static Map<String, String> bulkInsert(int docs, String variants) {
    Map<String, String> more = new HashMap<>(Map.of("batchSizes", "64", "threads", "1", "docs",
        String.valueOf(docs), "single", "false", "warmup", "0"));
    if (variants != null) {
      more.put("variants", variants);
    }
    return COUCHDB.runProperties(more);
  }

  /** @return the setting's value on the node as JSON, e.g. "\"123\"", or NONE where the node has no value of its own */
  private static String setting() {
    try {
      return COUCHDB.node().request("GET", SETTING, null).strip();
    } catch (IllegalStateException e) {
      if (e.getMessage().contains(": 404 ")) {
        return NONE;
      }
      throw e;
    }
  }

  private static Path restoreFile(Path resultsRoot) {
    return resultsRoot.resolve(RestoreFile.FOLDER).resolve(COUCHDB.node().url().replaceAll("[^A-Za-z0-9.]+", "-")
        + ".json");
  }

  @Test
  void shouldApplyEachVariantsValueBeforeItsRoundsAndRestoreTheOriginalAfter() throws Exception {
    try {
      COUCHDB.node().request("DELETE", SETTING, null);
    } catch (IllegalStateException notSet) {
      // none to remove
    }
    String original = setting();
    assertEquals(NONE, original, "no value of the node's own: the run removes the variants' when it restores");
    Set<String> seen = new ConcurrentSkipListSet<>();
    Thread watcher = new Thread(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        seen.add(setting());
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    watcher.start();
    GatlingRun.Result run;
    try {
      run = GatlingRun.run("BulkInsert", bulkInsert(2_000, VARIANTS), STALL);
    } finally {
      watcher.interrupt();
      watcher.join();
    }

    assertEquals(0, run.exitCode(), run.why());
    assertTrue(seen.containsAll(List.of("\"123\"", "\"4567\"")), "each variant's value on the server: " + seen);
    assertEquals(original, setting(), "the original back after the run");
    assertFalse(Files.exists(restoreFile(run.resultsRoot())), "the restore file removed once restored");
    assertTrue(run.output().contains("restored: [couchdb] max_dbs_open = (its default)"), run.output());
    assertTrue(run.output().contains("-Drounds=1: one round of each variant, so no verdict"), run.output());
    Path folder = run.requireRunFolder();
    String large = Files.readString(folder.resolve(VariantsReport.FILE));
    assertTrue(large.contains("\"config.couchdb.max_dbs_open\" : \"4567\""), large);
  }

  /**
   * Sets the node's own value (500), then starts a run of variants whose rounds outlast any test, and returns once its
   * first round's load runs, the first variant's value applied.
   */
  private static GatlingRun.Running inTheFirstRound() throws Exception {
    GatlingRun.Running run = GatlingRun.start("BulkInsert", bulkInsert(2_000_000, VARIANTS), Map.of(), List.of());
    run.awaitLine("couchbench: step 1/1: bulk B=64 T=1 .*", STALL);
    assertEquals("\"123\"", setting(), "the first variant's value while its round runs");
    return run;
  }

  @Test
  void shouldRestoreTheOriginalWhenTheRunIsStoppedWithCtrlC() throws Exception {
    COUCHDB.node().request("PUT", SETTING, "\"500\"");
    String original = setting();
    GatlingRun.Running run = inTheFirstRound();
    List<ProcessHandle> round = run.process().descendants().toList();
    assertTrue(round.stream().anyMatch(ProcessHandle::isAlive), "the round runs in a JVM of its own");

    new ProcessBuilder("kill", "-INT", String.valueOf(run.process().pid())).start().waitFor();
    assertTrue(run.process().waitFor(60, TimeUnit.SECONDS), "the run ends on Ctrl-C\n" + run.output());

    assertEquals(original, setting(), "the original back after Ctrl-C\n" + run.output());
    assertTrue(run.output().contains("restored: [couchdb] max_dbs_open"), run.output());
    for (ProcessHandle process : round) {
      assertTrue(process.onExit().get(30, TimeUnit.SECONDS) != null, "the round's JVM stopped too");
    }
  }

  @Test
  void shouldHaveTheNextRunRestoreWhatARunKilledWithSigkillLeft() throws Exception {
    COUCHDB.node().request("PUT", SETTING, "\"500\"");
    String original = setting();
    GatlingRun.Running killed = inTheFirstRound();
    List<ProcessHandle> round = killed.process().descendants().toList();
    killed.process().destroyForcibly().waitFor();
    round.forEach(ProcessHandle::destroyForcibly);
    Path resultsRoot = killed.output().lines().filter(line -> line.startsWith("couchbench: run folder: "))
        .map(line -> Path.of(line.substring("couchbench: run folder: ".length())).getParent()).findFirst()
        .orElseThrow();
    assertEquals("\"123\"", setting(), "the killed run could not restore");
    assertTrue(Files.exists(restoreFile(resultsRoot)), "it left its restore file under " + resultsRoot);

    GatlingRun.Result run = GatlingRun.start("BulkInsert", bulkInsert(1_000, null), Map.of(), List.of(), resultsRoot)
        .finish(STALL);

    assertEquals(0, run.exitCode(), run.why());
    assertTrue(run.output().contains(" restored first, from " + restoreFile(resultsRoot)), run.output());
    assertEquals(original, setting(), "the original back before the next run's load");
    assertFalse(Files.exists(restoreFile(resultsRoot)), "the restore file removed once applied");
  }

  /** @return the POST requests the node has answered (its own count, in _stats) */
  private static long posts(RealCouchDb.Node node) throws Exception {
    return JSON.readTree(node.request("GET", "/_node/_local/_stats/couchdb/httpd_request_methods/POST", null))
        .path("value").asLong();
  }

  @Test
  void shouldRunEachVariantsRoundsOnItsOwnServerOneServerAtATime() throws Exception {
    RealCouchDb.Node main = COUCHDB.node();
    try (RealCouchDb.Node branch = RealCouchDb.node(RealCouchDb.release(getClass()).orElseThrow())) {
      long mainBefore = posts(main);
      long branchBefore = posts(branch);
      Map<String, String> properties = bulkInsert(2_000, "main:couchdb.url=" + main.url() + ";branch:couchdb.url="
          + branch.url());
      properties.put("rounds", "2");
      GatlingRun.Result run = GatlingRun.run("BulkInsert", properties, STALL);

      assertEquals(0, run.exitCode(), run.why());
      Path folder = run.requireRunFolder();
      JsonNode variants = JSON.readTree(folder.resolve(VariantsReport.FILE).toFile());
      List<String> order = new ArrayList<>();
      variants.path("order").forEach(slot -> order.add(slot.path("variant").asText()));
      assertEquals(List.of("main", "branch", "branch", "main"), order);
      // Each round's results name the server it loaded; the rounds' runs follow each other, never overlapping.
      List<Results.Run> rounds = new ArrayList<>();
      for (JsonNode variant : variants.path("variants")) {
        String url = variant.path("name").asText().equals("main") ? main.url() : branch.url();
        assertEquals(2, variant.path("runs").size(), variant.toString());
        for (JsonNode runFolder : variant.path("runs")) {
          Results.Run round = ResultsFile.read(folder.resolveSibling(runFolder.asText()).resolve(ResultsFile.NAME))
              .run();
          assertEquals(List.of("CouchDB at " + url + " as admin"), round.targets(), runFolder.asText());
          rounds.add(round);
        }
      }
      rounds.sort(Comparator.comparing(round -> Instant.parse(round.start())));
      for (int i = 1; i < rounds.size(); i++) {
        assertTrue(!Instant.parse(rounds.get(i).start()).isBefore(Instant.parse(rounds.get(i - 1).end())),
            "one server loaded at a time: " + rounds);
      }
      // And each server counted its two rounds' _bulk_docs of 64 (2,000 documents a round: 32 POSTs).
      assertTrue(posts(main) - mainBefore >= 64, "main's POSTs: " + (posts(main) - mainBefore));
      assertTrue(posts(branch) - branchBefore >= 64, "branch's POSTs: " + (posts(branch) - branchBefore));
    }
  }

  @Test
  void shouldRefuseAMisspeltSettingAndALoginThatIsNotAServerAdminsInOneLineBeforeAnyRound() throws Exception {
    GatlingRun.Result misspelt = GatlingRun.run("BulkInsert", bulkInsert(1_000,
        "a:config.couchdb.max_dbs_opn=100;b"), STALL);

    misspelt.assertStoppedBeforeLoad("couchbench: stopped: -Dvariants: [couchdb] max_dbs_opn is not a setting of"
        + " CouchDB at " + COUCHDB.node().url() + " as admin: it answers GET /_node/" + COUCHDB.node().erlangName()
        + "/_config/couchdb/max_dbs_opn with 404 (not_found: unknown_config_value), and CouchDB 3.5's default.ini"
        + " has no such key; check the section and key against CouchDB's configuration reference");
    assertFalse(misspelt.output().contains("variant a, round 1"), "no round ran");

    COUCHDB.node().request("PUT", "/_users/org.couchdb.user:reader", "{\"name\": \"reader\", \"password\":"
        + " \"reader-secret\", \"roles\": [], \"type\": \"user\"}");
    Map<String, String> reader = bulkInsert(1_000, "a:config.couchdb.max_dbs_open=100;b");
    reader.put("couchdb.user", "reader");
    reader.put("couchdb.password", "reader-secret");
    GatlingRun.Result notAdmin = GatlingRun.run("BulkInsert", reader, STALL);

    assertEquals(1, notAdmin.exitCode(), notAdmin.why());
    assertTrue(notAdmin.output().contains("refused user 'reader'"), notAdmin.output());
    assertFalse(notAdmin.output().contains("reader-secret"), "never the password");
    assertFalse(notAdmin.output().contains("variant a, round 1"), "no round ran");
  }
}
