package couchbench.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.RunSeconds;
import couchbench.targets.RealNouveau;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Search against a real Apache CouchDB 3.5 node with its Nouveau server, both started once for the class: 20,000
 * documents, every search class answered right while writes come, the build timed with the Nouveau server's CPU and
 * memory, in all and second by second (charted, build-seconds.csv), which the run's seconds hold too for the load;
 * a word's tag counts asked of a view's _count as of Nouveau's facet; each write of the freshness writers found; the index rebuilt after its
 * function changed while writes come, every acknowledged write found after each build; a partitioned database searched
 * partition by partition, every answer the partition's; the Nouveau server stopped
 * mid-run (searches failing named, then answered again); a server with Nouveau off, its Nouveau server down, and
 * pouchdb-server, each said in one line.
 */
class SearchIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(6);
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final RealNouveau.PerClass SEARCH = new RealNouveau.PerClass();

  @Test
  void shouldAnswerEverySearchClassRightWhileWritesComeAndTimeTheIndexBuild() throws Exception {
    // Every class a share, writes two: each user's 80 requests ask every class at least 4 times. One shard (-Dq=1):
    // CouchDB 3.5 merges a string sort's hits from several shards out of order (docs/search.md).
    String mix = Stream.concat(SearchClass.names().stream().map(name -> name + ":1"), Stream.of("write:2"))
        .collect(Collectors.joining(","));
    GatlingRun.Result run = GatlingRun.run("Search", SEARCH.runProperties(Map.of("docs", "20000", "users", "2",
        "requests", "80", "mix", mix, "q", "1")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    assertTrue(run.output().contains("couchbench: search: each of the 18 classes asked once before the load"),
        run.output());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    for (String name : Stream.concat(SearchClass.names().stream(), Stream.of("write")).toList()) {
      GatlingReport.Counts counts = report.get(name);
      assertTrue(counts != null && counts.ok() > 0, name + " asked and answered right: " + report.keySet());
      assertEquals(0, counts.ko(), name);
    }
    JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
    JsonNode build = figures.path("build");
    assertEquals(20_000, build.path("indexedDocs").asLong(), "_nouveau_info's documents: " + build);
    assertTrue(build.path("seconds").asDouble() > 0 && build.path("docsPerSecond").asDouble() > 0, build.toString());
    assertTrue(build.path("nouveau").asText().startsWith("nouveau (pid " + SEARCH.nouveau().pid() + ")"),
        "the Nouveau server found by its port: " + build);
    assertTrue(build.path("nouveauCpuSeconds").asDouble() > 0, "Nouveau indexed 20,000 documents: " + build);
    assertTrue(build.path("nouveauMemoryAfter").asLong() > 0, build.toString());
    assertTrue(build.path("samplesSeen").asInt() > 0, "the build seen in _active_tasks: " + build);
    assertEquals(report.get("write").ok(), figures.path("writes").asLong());
    // The Nouveau server sampled each second of the load beside CouchDB: its CPU serving the searches, its memory.
    RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
    assertTrue(seconds.column("nouveau cpu (% of a core)").stream().anyMatch(percent -> percent > 0),
        "the Nouveau server's CPU in seconds.csv: " + seconds.column("nouveau cpu (% of a core)"));
    assertTrue(seconds.column("nouveau resident memory (MB)").stream().anyMatch(megabytes -> megabytes > 100),
        "the Nouveau server's memory in seconds.csv: " + seconds.column("nouveau resident memory (MB)"));
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("the index&#39;s build") || page.contains("the index's build"), "the build's table");
    assertBuildSecondBySecond(run, build, 20_000);
  }

  @Test
  void shouldTimeTheRebuildAfterTheIndexFunctionChangesWhileWritesComeAndFindEveryWriteAfterEachBuild()
      throws Exception {
    // 20 writes a second during each build; after the rebuild every class asked once, then 32 searches, of the new
    // index. One shard (-Dq=1) for the string sort, as above.
    GatlingRun.Result run = GatlingRun.run("Search", SEARCH.runProperties(Map.of("docs", "2000", "database",
        "search_rebuild", "users", "1", "requests", "32", "q", "1", "rebuild", "true", "buildRate", "20")), TIMEOUT);

    assertEveryClassAnsweredRight(run, "by the new index");
    JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
    JsonNode build = figures.path("build");
    JsonNode rebuild = figures.path("rebuild");
    long firstWrites = build.path("writes").asLong();
    long rebuildWrites = rebuild.path("writes").asLong();
    assertTrue(firstWrites > 0 && rebuildWrites > 0, "writes acknowledged during each build: " + figures);
    assertTrue(run.output().contains(String.format(Locale.ROOT, "couchbench: search: every one of the %,d writes"
        + " acknowledged while the index built found by a search after it", firstWrites + rebuildWrites)),
        run.output());
    // The rebuilt index holds the documents loaded and at least every write acknowledged before it was asked for.
    long indexed = rebuild.path("indexedDocs").asLong();
    assertTrue(indexed >= 2000 + firstWrites && indexed <= 2000 + firstWrites + rebuildWrites, rebuild.toString());
    assertTrue(rebuild.path("seconds").asDouble() > 0 && rebuild.path("nouveauCpuSeconds").asDouble() > 0
        && rebuild.path("nouveauMemoryAfter").asLong() > 0, "timed as the first build is: " + rebuild);
    JsonNode design = JSON.readTree(SEARCH.node().request("GET", "/search_rebuild/_design/search", null));
    assertTrue(design.path("_rev").asText().startsWith("2-") && design.path("nouveau").path("docs").path("index")
        .asText().contains("title_words"), "the index function changed: " + design);
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("after the change"), "the rebuild's row");
    // Each build second by second, in the same file and charts.
    List<String> csv = Files.readAllLines(run.requireRunFolder().resolve("build-seconds.csv"));
    assertTrue(build.path("bySecond").size() > 0 && rebuild.path("bySecond").size() > 0, figures.toString());
    assertEquals(1 + build.path("bySecond").size() + rebuild.path("bySecond").size(), csv.size(), csv.toString());
    assertTrue(csv.stream().anyMatch(line -> line.startsWith("first,"))
        && csv.stream().anyMatch(line -> line.startsWith("after the change,")), "each build's seconds: " + csv);
  }

  @Test
  void shouldAskEveryClassOfOnePartitionAtATimeAndCheckEachAnswerAgainstThatPartitionsDocuments() throws Exception {
    // 2,000 documents in 8 partitions, the server's default shards: a partition's documents are on one shard, so the
    // string sort comes back in order without -Dq=1. Freshness writers' documents each searched for in its partition.
    GatlingRun.Result run = GatlingRun.run("Search", SEARCH.runProperties(Map.of("docs", "2000", "database",
        "search_partitioned", "partitioned", "true", "users", "1", "requests", "32", "rate", "10", "duration", "3")),
        TIMEOUT);

    assertEveryClassAnsweredRight(run, "of its partition");
    JsonNode fresh = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures")
        .path("freshness");
    assertEquals(30, fresh.path("found").asLong(), "each write found in its partition: " + fresh);
    assertTrue(JSON.readTree(SEARCH.node().request("GET", "/search_partitioned", null)).path("props")
        .path("partitioned").asBoolean(), "a partitioned database");
    // A partition's search has its documents alone: p3's 250 of the 2,000 and the freshness writes 3, 11, 19 and 27.
    JsonNode p3 = JSON.readTree(SEARCH.node().request("GET", "/search_partitioned/_partition/p3/_design/search"
        + "/_nouveau/docs?q=*:*&limit=200", null));
    assertEquals(254, p3.path("total_hits").asLong(), p3.path("total_hits").toString());
    p3.path("hits").forEach(hit -> assertTrue(hit.path("id").asText().startsWith("p3:"), hit.toString()));
  }

  @Test
  void shouldTimeEachFreshnessWriteUntilASearchFindsItWhileEachClassClimbsTheStaircase() throws Exception {
    // The writers write for 3 s while term, then keyword, each climb 10 then 20 searches a second, 2 s a step.
    GatlingRun.Result run = GatlingRun.run("Search", SEARCH.runProperties(Map.of("docs", "2000", "database",
        "search_fresh", "users", "2", "searches", "term,keyword", "targets", "10,20", "settleSeconds", "0",
        "stepSeconds", "2", "rate", "20", "duration", "3")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    assertEquals(60, report.get("fresh write").ok(), "20 a second for 3 s: " + report);
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode fresh = results.path("figures").path("freshness");
    assertEquals(60, fresh.path("found").asLong(), fresh.toString());
    assertEquals(0, fresh.path("notFound").asLong(), fresh.toString());
    assertEquals(0, fresh.path("stale").asLong(), "CouchDB brings the index up to date before it answers: " + fresh);
    assertEquals(60, fresh.path("searches").asLong(), "one search a write: " + fresh);
    JsonNode group = null;
    for (JsonNode entry : results.path("requests")) {
      if (entry.path("name").asText().equals(SearchLoad.FOUND_BY_SEARCH)) {
        group = entry;
      }
    }
    assertTrue(group != null && group.path("kind").asText().equals("group") && group.path("ok").asLong() == 60,
        "each write timed from its acknowledgement to the search that found it: " + group);
    // Each class's own staircase: both rates, each step's searches answered right and timed from their intended start.
    JsonNode steps = results.path("figures").path("steps");
    assertEquals(List.of("term", "keyword"), iterable(steps.fieldNames()), steps.toString());
    for (String searchClass : List.of("term", "keyword")) {
      JsonNode climbed = steps.path(searchClass);
      assertEquals(2, climbed.size(), searchClass + ": " + climbed);
      long ok = 0;
      for (int step = 0; step < 2; step++) {
        JsonNode figures = climbed.get(step);
        assertEquals(10.0 * (step + 1), figures.path("target").asDouble(), figures.toString());
        assertEquals(0, figures.path("failed").asLong(), searchClass + " at " + figures.path("target") + "/s: "
            + figures);
        ok += figures.path("ok").asLong();
      }
      // A step may end none on a busy machine: each search waits for the index to take in the writers' documents.
      assertTrue(ok > 0, searchClass + ": searches timed on the staircase " + climbed);
      assertTrue(report.get(searchClass).ok() > 0 && report.get(searchClass).ko() == 0, searchClass + ": " + report);
    }
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("the staircase, step by step") && page.contains("latency against throughput"),
        "the steps' table and the curve, a line per class");
  }

  @Test
  void shouldAnswerTheSameQuestionsRightOfNouveauMangoAViewAndMangosNouveauIndexAndNameTheirWrongAnswers()
      throws Exception {
    // The classes another engine answers (term, keyword, range, sort_number, counts), each asked of every engine that
    // answers it, 15 questions: each asked once and answered right before the load; as the load starts, every
    // document is deleted behind the run's back, so that each engine's answers are wrong from then on. One user asks
    // the 15 four times: a round takes under a second, and the deletion (a read of every id, then a bulk delete) may
    // land in the second.
    GatlingRun.Running running = GatlingRun.start("Search", SEARCH.runProperties(Map.of("docs", "1000", "database",
        "search_engines", "users", "1", "requests", "60", "q", "1", "engines", "nouveau,mango,view,mango_nouveau")),
        Map.of());
    running.awaitLine("Simulation Search started.*", TIMEOUT);
    ArrayNode deletions = JSON.createObjectNode().putArray("docs");
    for (JsonNode row : JSON.readTree(SEARCH.node().request("GET", "/search_engines/_all_docs?startkey=%22doc%22"
        + "&endkey=%22doc%EF%BF%B0%22", null)).path("rows")) {
      deletions.addObject().put("_id", row.path("id").asText()).put("_rev", row.path("value").path("rev").asText())
          .put("_deleted", true);
    }
    SEARCH.node().request("POST", "/search_engines/_bulk_docs", "{\"docs\":" + deletions + "}");
    GatlingRun.Result run = running.finish(TIMEOUT);

    assertEquals(2, run.exitCode(), "the wrong answers fail the run: " + run.why());
    assertTrue(run.output().contains("couchbench: search: each of the 5 classes asked once before the load of each of"
        + " the 4 engines: 15 requests, every answer right"), run.output());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    Map<String, JsonNode> entries = new HashMap<>();
    results.path("requests").forEach(entry -> entries.put(entry.path("name").asText(), entry));
    for (String name : List.of("term", "term / mango", "term / view", "keyword", "keyword / mango", "keyword / view",
        "range", "range / mango", "range / view", "range / mango_nouveau", "sort_number", "sort_number / mango",
        "sort_number / view", "counts", "counts / view")) {
      JsonNode entry = entries.get(name);
      assertTrue(entry != null, name + " asked: " + entries.keySet());
      List<String> failures = iterable(entry.path("failures").fieldNames());
      // A search asked before the deletion took effect is still right: the last rounds' are all wrong.
      assertTrue(entry.path("ko").asLong() > 0 && failures.stream().allMatch(failure -> failure.matches(
          "search answer, found (\\d+ hits, \\d+ expected|total_hits \\d+ |the tag facet counts ).*")),
          name + ": each answer after the deletion named wrong: " + entry);
    }
    assertEquals(List.of("compare-tag", "compare-n", "compare-words", "compare-word-tags", "mango-tag", "mango-n",
        "mango-nouveau"),
        iterable(results.path("figures").path("comparisonBuilds").fieldNames()), "each build timed");
  }

  @Test
  void shouldNameTheSearchesThatFailWhileTheNouveauServerIsDownAndRecoverWhenItIsBack() throws Exception {
    GatlingRun.Running running = GatlingRun.start("Search", SEARCH.runProperties(Map.of("docs", "2000", "database",
        "search_restart", "users", "2", "searches", "term,counts", "duration", "25")), Map.of());
    running.awaitLine("Simulation Search started.*", TIMEOUT);
    Thread.sleep(3_000);
    SEARCH.nouveau().stop();
    Thread.sleep(2_000);
    SEARCH.nouveau().start();
    GatlingRun.Result run = running.finish(TIMEOUT);

    assertEquals(2, run.exitCode(), "the searches that failed fail the run: " + run.why());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    long unavailable = 0;
    for (JsonNode entry : results.path("requests")) {
      for (var failure : entry.path("failures").properties()) {
        // CouchDB's reply while the Nouveau server stops or is away: 503 "Search service unavailable.", or, for
        // Nouveau's own 503 while it shuts down, a function_clause of its nouveau_api.
        boolean refused = failure.getKey().startsWith("search answer, found refused: ");
        assertTrue(refused || failure.getKey().contains("Request timeout"),
            "each failure named as what it is: " + failure.getKey());
        unavailable += refused ? failure.getValue().asLong() : 0;
      }
    }
    assertTrue(unavailable > 0, "searches failed while the Nouveau server was down: " + results.path("requests"));
    RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
    List<Double> failed = seconds.column("failed (/s)");
    List<Double> requests = seconds.column("requests (/s)");
    int lastFailure = 0;
    for (int second = 0; second < failed.size(); second++) {
      lastFailure = failed.get(second) > 0 ? second : lastFailure;
    }
    double after = 0;
    for (int second = lastFailure + 1; second < requests.size(); second++) {
      after += requests.get(second) - failed.get(second);
    }
    assertTrue(after > 0, "searches answered right again once it was back: failed " + failed + ", requests "
        + requests);
  }

  @Test
  void shouldSayInOneLineWhenCouchDbHasNouveauOff() throws Exception {
    SEARCH.node().request("PUT", "/_node/_local/_config/nouveau/enable", "\"false\"");
    try {
      GatlingRun.Result run = GatlingRun.run("Search", SEARCH.runProperties(Map.of("docs", "10")), TIMEOUT);

      run.assertStoppedBeforeLoad("couchbench: stopped: CouchDB 3.5.0 at " + SEARCH.node().url() + " has no Nouveau"
          + " (GET / lists no \"nouveau\" in features): set [nouveau] enable = true");
    } finally {
      SEARCH.node().request("PUT", "/_node/_local/_config/nouveau/enable", "\"true\"");
    }
  }

  @Test
  void shouldSayInOneLineThatPouchDbServerHasNoSearch() throws Exception {
    // No -Dcouchdb.url: the run starts the local pouchdb-server, as the main job does.
    GatlingRun.Result run = GatlingRun.run("Search", Map.of("docs", "10"), TIMEOUT);

    run.assertStoppedBeforeLoad("is not Apache CouchDB (pouchdb-server has no search): Search needs CouchDB 3.4 or"
        + " later with Nouveau; give -Dcouchdb.url of one");
  }

  @Test
  void shouldSayInOneLineWhenTheNouveauServerIsDown() throws Exception {
    SEARCH.nouveau().stop();
    try {
      GatlingRun.Result run = GatlingRun.run("Search", SEARCH.runProperties(Map.of("docs", "10", "database",
          "search_down")), TIMEOUT);

      run.assertStoppedBeforeLoad("couchbench: stopped: CouchDB at " + SEARCH.node().url() + " refused the first"
          + " search of the index: 503 service unavailable: Search service unavailable. (is its Nouveau server"
          + " running? CouchDB's [nouveau] url names it)");
    } finally {
      SEARCH.nouveau().start();
    }
  }

  // The build second by second (results.json, build-seconds.csv, the page's charts): a row a second of the build and
  // one for the second it ended in, the Nouveau server's CPU and memory and CouchDB's CPU read, the index's documents
  // rising to what it holds once built.
  private static void assertBuildSecondBySecond(GatlingRun.Result run, JsonNode build, long indexed)
      throws Exception {
    JsonNode bySecond = build.path("bySecond");
    double seconds = build.path("seconds").asDouble();
    assertTrue(bySecond.size() >= seconds - 1 && bySecond.size() <= seconds + 2, "a row a second of the "
        + seconds + " s: " + bySecond.size());
    List<Double> documents = new ArrayList<>();
    bySecond.forEach(second -> documents.add(second.path("indexedDocs").asDouble()));
    assertTrue(streamOf(bySecond).anyMatch(second -> second.path("nouveauCpu").asDouble() > 0)
        && streamOf(bySecond).anyMatch(second -> second.path("couchCpu").asDouble() > 0), "both processes' CPU: "
        + bySecond);
    assertTrue(streamOf(bySecond).allMatch(second -> second.path("nouveauMemory").asDouble() > 0),
        "the Nouveau server's memory each second: " + bySecond);
    List<Double> read = documents.stream().filter(count -> count >= 0).toList();
    for (int at = 1; at < read.size(); at++) {
      assertTrue(read.get(at) >= read.get(at - 1), "the index's documents never fall: " + documents);
    }
    assertTrue(read.get(0) < indexed && read.get(read.size() - 1) == indexed, "rising to " + indexed + ": "
        + documents);
    List<String> csv = Files.readAllLines(run.requireRunFolder().resolve("build-seconds.csv"));
    assertEquals(bySecond.size() + 1, csv.size(), "a heading and a row a second: " + csv);
    assertTrue(Files.exists(run.requireRunFolder().resolve("the-build-cpu.png"))
        && Files.exists(run.requireRunFolder().resolve("the-build-the-nouveau-server-s-memory.png"))
        && Files.exists(run.requireRunFolder().resolve("the-build-the-index-s-documents.png")), "the charts");
  }

  private static Stream<JsonNode> streamOf(JsonNode array) {
    List<JsonNode> all = new ArrayList<>();
    array.forEach(all::add);
    return all.stream();
  }

  private static List<String> iterable(Iterator<String> names) {
    List<String> all = new ArrayList<>();
    names.forEachRemaining(all::add);
    return all;
  }

  // A run that passed, asked each of the 18 classes before its load, and had each answered right in it.
  private static void assertEveryClassAnsweredRight(GatlingRun.Result run, String how) throws Exception {
    assertEquals(0, run.exitCode(), run.why());
    assertTrue(run.output().contains("couchbench: search: each of the 18 classes asked once before the load"),
        run.output());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    for (String name : SearchClass.names()) {
      assertTrue(report.get(name) != null && report.get(name).ok() > 0 && report.get(name).ko() == 0,
          name + " answered right " + how + ": " + report);
    }
  }
}
