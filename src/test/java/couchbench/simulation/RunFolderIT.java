package couchbench.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.Prerequisites;
import couchbench.RunSeconds;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.RealCouchDb;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run knows its own folder: it takes the name from Gatling's run id and says it when the load starts, and its
 * summary, results.json and histograms.hlog are there at the end, whatever the clocks did. Where they cannot go beside
 * Gatling's report, they still go somewhere, the run says where, and ends with a code that is not 0.
 *
 * <p>Issue 42's run lost its summary: couchbench guessed the folder from the timestamps in the names, within a second
 * of the wall clock at the load's start, but Gatling stamps its folder with its own clock, the wall clock read at JVM
 * start plus the monotonic time elapsed since. A step of the machine's wall clock between the two (on a virtual
 * machine, the host setting the guest's time after the guest was held back) puts them apart; the first run of a clone
 * installs pouchdb-server in that gap, a minute or more. Here libfaketime steps the run's wall clock forward an hour
 * while the run starts its local pouchdb-server, as the main job does on a fresh machine.
 */
class RunFolderIT {

  // The first run on a machine installs pouchdb-server, minutes on a busy one.
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(8);

  private static final DateTimeFormatter GATLING_STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")
      .withZone(ZoneOffset.UTC);

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldWriteTheSummaryIntoTheFolderGatlingNamedWhenTheWallClockStepsBeforeTheLoad() throws Exception {
    // No warm-up, few documents: the folder and the files in it are what is checked.
    // FAKETIME_FORCE_MONOTONIC_FIX=0: libfaketime 0.9.10 applies its monotonic fix by default with this glibc, and
    // with it the JVM's timed waits (Thread.sleep, park, Object.wait) return early, so its threads spin on both cores
    // and a BulkInsert sent 4-20 requests a second (80 s for this test). Without it they wait as long as asked, the
    // wall clock still steps by the offset file, and System.nanoTime is still the real monotonic clock. The run, so
    // fast, starts its pouchdb-server in about a second, within the 1.5 s after the step: node, through a script
    // first on the run's PATH, starts 3 s late, as on the first run of a clone, which installs it first.
    GatlingRun.Result run = runWithTheClockSteppedBeforeTheLoad(Map.of("batchSizes", "1,8", "threads", "1",
        "docs", "64", "stepSeconds", "0", "warmup", "0"), Map.of("FAKETIME_FORCE_MONOTONIC_FIX", "0", "PATH",
        slowNodeFirst()), () -> {});

    assertEquals(0, run.exitCode(), run.why());
    Path folder = said(run, "couchbench: run folder: (.+)");
    assertEquals(folder.resolve("summary.html"), said(run, "couchbench: summary: (.+)"), "the last line says it");
    assertTrue(Files.exists(folder.resolve("index.html")), "the summary is beside Gatling's report");
    Results results = ResultsFile.read(folder);
    for (String step : List.of("single T=1", "bulk B=1 T=1", "bulk B=8 T=1")) {
      assertTrue(results.requests().stream().anyMatch(entry -> entry.name().equals(step) && entry.ok() >= 8),
          step + ": results.json holds this run's steps, from its simulation.log");
    }
    assertEquals(3, Files.readAllLines(folder.resolve("docs-per-second-by-step.csv")).size() - 1, "and its figures");
    Instant stamped = Instant.from(GATLING_STAMP.parse(folder.getFileName().toString().replace("bulkinsert-", "")));
    Instant loadStart = hlogStart(folder.resolve("histograms.hlog"));
    Duration afterStamp = Duration.between(stamped, loadStart);
    // Gatling's clock and the run's are each one reading of the wall clock before the step, and the monotonic time
    // since: they differ by where each took its reading (0.3 s seen here), never by the hour the wall clock stepped.
    assertTrue(afterStamp.compareTo(Duration.ofSeconds(-1)) > 0 && afterStamp.compareTo(RUN_TIMEOUT) < 0, "the load's"
        + " start on the run's clock (" + loadStart + ") is near Gatling's stamp (" + stamped + "), not an hour off");
  }

  /**
   * A run's figures on one clock through a step of the wall clock: Gatling's requests (timed on Gatling's clock, read
   * at its JVM's start), the servers' samples and the load's start (the run's clock) all in the same seconds, those of
   * the load, in seconds.csv. With the servers on the wall clock, the requests were an hour before second 0.
   */
  @Test
  void shouldKeepTheRequestsAndTheServersSecondsAlignedWhenTheWallClockStepsBeforeTheLoad() throws Exception {
    int port = URI.create(COUCHDB.node().url()).getPort();
    long started = System.nanoTime();
    GatlingRun.Result run;
    // Here no server start stands between the run's settings and its load, only requests to CouchDB: the forwarder
    // holds CouchDB's replies until the clock has stepped, so that the step falls while the run's first request is in
    // flight. It waits on the monotonic clock (SteadyHttp), where the JDK's client's own timeouts ended requests at the
    // step ("no reply within 5 s", "no connection within 3 s"). FAKETIME_FORCE_MONOTONIC_FIX=0 as in the test above:
    // with libfaketime's default fix the run's threads spin, sending 3-5 requests a second, and the test took 131 s.
    // 800 documents a step: some 100 requests a second here, 16 s of load, and a second at either end of it without a
    // server sample is then a sixteenth of them (of 100 requests, 46 were in such a second, and the check failed).
    try (Forwarder couchdb = Forwarder.start(port)) {
      couchdb.hold();
      run = runWithTheClockSteppedBeforeTheLoad(COUCHDB.runProperties(Map.of("couchdb.url", "http://"
          + couchdb.address(), "batchSizes", "1", "threads", "2", "docs", "800", "warmup", "0", "stepSeconds", "0")),
          Map.of("FAKETIME_FORCE_MONOTONIC_FIX", "0"), couchdb::release);
    }
    long ranSeconds = (System.nanoTime() - started) / 1_000_000_000;

    assertEquals(0, run.exitCode(), run.why());
    Results results = ResultsFile.read(run.requireRunFolder());
    long requests = results.requests().stream().filter(entry -> entry.kind().equals("request"))
        .mapToLong(Results.Entry::count).sum();
    RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
    List<Double> load = seconds.column("requests (/s)");
    List<Double> httpd = seconds.column("couchdb httpd requests (/s)");
    assertTrue(load.size() <= ranSeconds, "seconds.csv spans the load, not the hour of the step: " + load.size()
        + " rows in a run of " + ranSeconds + " s");
    assertEquals(requests, Math.round(load.stream().mapToDouble(Double::doubleValue).sum()),
        "every request in a second of the load: " + load);
    double servedInTheLoadsSeconds = IntStream.range(0, load.size()).filter(second -> load.get(second) > 0)
        .mapToDouble(second -> Double.isNaN(httpd.get(second)) ? 0 : httpd.get(second)).sum();
    assertTrue(servedInTheLoadsSeconds >= 0.8 * requests, "CouchDB's own count of requests a second is high in the"
        + " seconds the load's requests ended in (" + servedInTheLoadsSeconds + " of " + requests + "):\n" + load
        + "\n" + httpd);
  }

  /**
   * Runs BulkInsert with libfaketime stepping the run's wall clock forward an hour after its settings are printed
   * (Gatling has made its clock then) and before the load.
   *
   * @param environment variables added to the run's, besides libfaketime's own
   * @param stepped what lets the run go on once its clock has stepped, if anything holds it
   */
  private static GatlingRun.Result runWithTheClockSteppedBeforeTheLoad(Map<String, String> properties,
      Map<String, String> environment, Runnable stepped) throws Exception {
    Path faketime = Prerequisites.libfaketime(RunFolderIT.class);
    Path offset = Files.createTempFile("couchbench-clock-", ".offset");
    Files.writeString(offset, "+0\n");
    Map<String, String> faked = new HashMap<>(environment);
    faked.putAll(Map.of("LD_PRELOAD", faketime.toString(), "FAKETIME_TIMESTAMP_FILE", offset.toString(),
        "FAKETIME_CACHE_DURATION", "1", "FAKETIME_DONT_FAKE_MONOTONIC", "1"));
    GatlingRun.Running running = GatlingRun.start("BulkInsert", properties, faked);
    // Gatling has made its clock once the simulation prints its settings; the run then starts its server (seconds),
    // and its processes read the offset again within a second. (They inherit it; a step is no harm there.)
    running.awaitLine("couchbench: settings: .*", RUN_TIMEOUT);
    Files.writeString(offset, "+3600\n");
    Thread.sleep(1500);
    assertFalse(running.output().contains("couchbench: run folder: "),
        "the clock must step before the load; the run got there first:\n" + running.output());
    stepped.run();
    GatlingRun.Result run = running.finish(RUN_TIMEOUT);
    assertTrue(Pattern.compile("couchbench: clock: the machine's wall clock moved \\+3600\\.\\d s during the run")
        .matcher(run.output()).find(), "the step happened, and the run says so:\n" + run.output());
    return run;
  }

  @Test
  void shouldWriteIntoAFolderOfItsOwnAndEndWithCode4WhenItCannotGoBesideGatlingsReport() throws Exception {
    Path elsewhere = Files.createDirectories(Path.of("target", "it-runs", "elsewhere-" + System.nanoTime()))
        .toAbsolutePath();
    // couchbench told to write where Gatling does not: Gatling's run folder is not there.
    GatlingRun.Result run = GatlingRun.run("MemSet", Map.of("couchbench.reports", elsewhere.toString(),
        "users", "2", "duration", "1", "warmup", "0", "keyFile", elsewhere.resolve("keys.csv").toString()),
        RUN_TIMEOUT);

    assertEquals(CouchbenchSimulation.RESULTS_NOT_BESIDE_REPORT, run.exitCode(), run.why());
    Path gatlings;
    try (var folders = Files.list(run.resultsRoot())) {
      gatlings = folders.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    assertTrue(Files.exists(gatlings.resolve("index.html")), "Gatling's report is written before the run ends");
    Matcher warning = Pattern.compile("couchbench: WARNING: results not beside Gatling's report \\(Gatling's run"
        + " folder memset-\\d{17} is not under " + Pattern.quote(elsewhere.toString()) + ": give -Dcouchbench.reports"
        + " the folder Gatling writes its runs to\\): written to (.+) instead").matcher(run.output());
    assertTrue(warning.find(), run.output());
    Path own = Path.of(warning.group(1));
    assertEquals(elsewhere, own.getParent());
    assertTrue(own.getFileName().toString().matches("memset-couchbench-\\d{17}"), own.toString());
    assertEquals(own.resolve("summary.html"), said(run, "couchbench: summary: (.+)"));
    assertTrue(Files.readString(own.resolve("summary.html")).contains("results not beside Gatling"));
    Results results = ResultsFile.read(own);
    assertEquals("MemSet", results.run().simulation());
    assertTrue(results.requests().isEmpty(), "Gatling's log is not where couchbench looks: no request entries");
    assertTrue(results.figures().size() > 0, "the simulation's own figures are kept");
    assertTrue(Files.size(own.resolve("histograms.hlog")) > 0);
    assertEquals(own.getFileName().toString(), Files.readString(elsewhere.resolve("lastRun.txt")));
    String[] lines = run.output().strip().split("\n");
    assertTrue(lines[lines.length - 1].startsWith("couchbench: summary: "), "the summary's line is the last");
  }

  /** @return this JVM's PATH behind a folder whose node waits 3 s, then runs the node the PATH names */
  private static String slowNodeFirst() throws IOException {
    String path = System.getenv("PATH");
    Path node = Arrays.stream(path.split(":")).map(folder -> Path.of(folder, "node")).filter(Files::isExecutable)
        .findFirst().orElseThrow(() -> new AssertionError("no node on the PATH: " + path));
    Path folder = Files.createTempDirectory("couchbench-slow-node-");
    Path script = Files.writeString(folder.resolve("node"), "#!/bin/sh\nsleep 3\nexec '" + node + "' \"$@\"\n");
    assertTrue(script.toFile().setExecutable(true), script.toString());
    return folder + ":" + path;
  }

  /** The path in the one line of the run's output that matches. */
  private static Path said(GatlingRun.Result run, String line) {
    Matcher matcher = Pattern.compile("(?m)^" + line + "$").matcher(run.output());
    assertTrue(matcher.find(), "no line like " + line + "\n" + run.output());
    return Path.of(matcher.group(1));
  }

  /** The wall-clock start a histograms.hlog names: the run's at its load's start. */
  private static Instant hlogStart(Path hlog) throws IOException {
    Matcher start = Pattern.compile("#\\[StartTime: ([0-9.]+) ").matcher(Files.readString(hlog));
    assertTrue(start.find(), hlog + " names no start");
    return Instant.ofEpochMilli(Math.round(Double.parseDouble(start.group(1)) * 1000));
  }
}
