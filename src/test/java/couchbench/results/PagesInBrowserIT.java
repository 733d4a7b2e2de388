package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.Browser;
import couchbench.GatlingRun;
import couchbench.Prerequisites;
import couchbench.history.History;
import couchbench.merge.MergeCommand;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kind of page couchbench writes, from the briefest real run of each simulation, then Compare and Merge on
 * those runs, opened in headless Chromium with the network off: nothing fetched from outside, every image (each
 * chart) decoded, no console error, a screenshot that is not blank, no page wider than the window (1280 px: a wide
 * table scrolls in its own box). That no chart's legend is taller than its plot is held where the legend is drawn,
 * inside the PNG: couchbench.report.ChartLayoutTest, against XChart's layout.
 */
class PagesInBrowserIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);
  private static final Map<String, Path> PAGES = new ConcurrentHashMap<>();
  private static Browser browser;

  @TempDir
  static Path work;

  @BeforeAll
  static void writeEveryKindOfPage() throws Exception {
    Optional<Path> chromium = Browser.chromium(PagesInBrowserIT.class);
    if (chromium.isEmpty()) {
      return;
    }
    try (MemcachedServer memcached = MemcachedServer.start(); PouchDbServer couch = PouchDbServer.start()) {
      Map<String, String> memcache = Map.of("memcache.servers", memcached.address());
      Map<String, String> couchdb = Map.of("couchdb.url", couch.url());
      Map<String, String> siege = Map.of("users", "2", "duration", "1", "warmup", "0");
      Path keys = work.resolve("keys.csv");
      Path ids = work.resolve("ids.csv");
      // Two lanes of runs side by side: each Gatling JVM spends most of its ~10 s starting and writing reports,
      // and the suite's time is short. A lane's runs go in order, a read after the write it reads. The lanes hold
      // about as much work (the run of variants alone is five JVMs): a lane that ends long after the other leaves a
      // core idle meanwhile.
      ExecutorService lanes = Executors.newFixedThreadPool(2);
      try {
        Future<?> oneLane = lanes.submit(() -> {
          run("MemSet", memcache, siege, Map.of("keyFile", keys.toString()));
          run("MemGet", memcache, siege, Map.of("keyFile", keys.toString()));
          // Two variants of two rounds, an A/A run: the page of a run of variants, its verdicts and rounds' charts.
          runAs("variants", "MemGet", memcache, siege, Map.of("keyFile", keys.toString(), "variants", "a;b",
              "rounds", "2"));
          run("AttachmentUpload", couchdb, Map.of("maxExponent", "2", "repeat", "1",
              "dataDir", work.resolve("attachments").toString()));
          return null;
        });
        Future<?> otherLane = lanes.submit(() -> {
          run("CouchSet", couchdb, siege, Map.of("keyFile", ids.toString(), "database", "pages_siege"));
          run("CouchGet", couchdb, siege, Map.of("keyFile", ids.toString(), "database", "pages_siege"));
          // In two rounds: the page of a run with -Drounds, its charts drawing ranges, is a kind of its own.
          run("BulkInsert", couchdb, Map.of("batchSizes", "1,8", "threads", "1", "docs", "16", "warmup", "0",
              "stepSeconds", "0", "rounds", "2"));
          run("ViewQuery", couchdb, Map.of("database", "pages_view", "rows", "3", "rate", "20", "conns", "20"));
          run("CouchVsMemcache", memcache, couchdb, siege,
              Map.of("fields", "2", "keyDir", work.resolve("vs").toString(), "database", "pages_vs"));
          return null;
        });
        finish(oneLane);
        finish(otherLane);
      } finally {
        lanes.shutdownNow();
      }
    }
    Compare.Run memGet = Compare.read(PAGES.get("MemGet").getParent());
    Compare.Run couchGet = Compare.read(PAGES.get("CouchGet").getParent());
    PAGES.put("compare", Compare.page(memGet, couchGet, Map.of("memcache get", "couchdb get"))
        .writeTo(work.resolve("compare"), "compare.html"));
    // The history of three runs kept, as exec:java@history draws it over a results root.
    for (String simulation : List.of("MemSet", "MemGet", "CouchGet")) {
      Path kept = Files.createDirectories(work.resolve("kept").resolve(simulation));
      Files.copy(PAGES.get(simulation).resolveSibling(ResultsFile.NAME), kept.resolve(ResultsFile.NAME));
    }
    PAGES.put("history", History.write(work.resolve("kept")));
    PAGES.put("merge", Merge.run(new String[] {PAGES.get("MemSet").getParent().toString(),
        work.resolve("merged").toString()}, MergeCommand::summaryOf));
    browser = Browser.start(chromium.get());
  }

  @AfterAll
  static void stopBrowser() {
    if (browser != null) {
      browser.close();
    }
  }

  @BeforeEach
  void needsChromium() {
    Prerequisites.require(browser != null, Browser.NOT_INSTALLED);
  }

  @ParameterizedTest
  @ValueSource(strings = {"MemSet", "MemGet", "CouchSet", "CouchGet", "CouchVsMemcache", "BulkInsert", "ViewQuery",
      "AttachmentUpload", "compare", "merge", "history", "variants"})
  void shouldOpenOfflineWithEveryImageNoConsoleErrorAndNoPageWiderThanTheWindow(String kind) throws Exception {
    Browser.Findings findings = browser.open(PAGES.get(kind));

    assertTrue(findings.images() > 0, kind + ": the page has its charts: " + findings);
    assertEquals(Browser.WIDTH, findings.windowWidth());
    assertTrue(findings.fits(), kind + ": " + findings.pageWidth() + " px wide, the window " + findings.windowWidth());
    assertTrue(findings.clean(), kind + ": " + findings);
    if (!List.of("compare", "merge", "history", "variants").contains(kind)) {
      String html = Files.readString(PAGES.get(kind));
      for (String chart : List.of("requests a second", "latency second by second")) {
        assertTrue(html.contains("alt=\"" + chart + "\""), kind + ": the run second by second, " + chart);
      }
      // The servers are read once a second from the load's first whole second: a load of a second or less (the
      // smallest AttachmentUpload here) may end before the first reading, and its page rightly has none.
      long seconds = Files.readAllLines(PAGES.get(kind).resolveSibling(SecondsPage.FILE)).size() - 1;
      assertTrue(seconds < 3 || html.contains("alt=\"the servers, memory in MB\""),
          kind + ": the run second by second, the servers' memory, over " + seconds + " seconds");
    }
  }

  /** Waits for a lane, failing with its own assertion rather than a wrapper around it. */
  private static void finish(Future<?> lane) throws Exception {
    try {
      lane.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw (Exception) e.getCause();
    }
  }

  @SafeVarargs
  private static void run(String simulation, Map<String, String>... properties) throws Exception {
    runAs(simulation, simulation, properties);
  }

  /** The same, its page kept as a kind of page of its own. */
  @SafeVarargs
  private static void runAs(String kind, String simulation, Map<String, String>... properties) throws Exception {
    Map<String, String> all = new LinkedHashMap<>();
    for (Map<String, String> some : properties) {
      all.putAll(some);
    }
    GatlingRun.Result run = GatlingRun.run(simulation, all, RUN_TIMEOUT);
    assertEquals(0, run.exitCode(), simulation + ": " + run.output());
    Path page = run.requireRunFolder().resolve("summary.html");
    assertTrue(Files.exists(page), simulation + " wrote summary.html");
    PAGES.put(kind, page);
  }
}
