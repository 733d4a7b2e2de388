package couchbench.results;

import couchbench.data.KeyFile;
import couchbench.gatling.GatlingRunId;
import couchbench.gatling.ResponseTap;
import couchbench.memcache.MemcacheTimings;
import couchbench.memcache.client.ProtocolErrors;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.scaleout.Injector;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import couchbench.startup.Settings;
import io.gatling.javaapi.core.Simulation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * Everything a run leaves beside Gatling's report, written from one place: summary.html (the simulation's own page,
 * built by its {@link Summary} from results.json's entries and figures, with the latency table and percentile chart
 * added), results.json and histograms.hlog. A simulation makes one in a field, calls {@link #loadStarts} at the end of
 * before() and {@link #finish} in after(); the run folder is the one Gatling names, which it hears from
 * {@link GatlingRunId} as Gatling builds the scenarios. Memcache times come from couchbench's client in nanoseconds
 * ({@link #memcacheTimings}), taken every {@link #INTERVAL} into a histogram log on disk, so memory does not grow with
 * the run; everything else comes from Gatling's simulation.log, read once. One injector of several ({@link Injector})
 * waits in {@link #loadStarts} for the agreed start, and its results say its share and how late it started, so that
 * {@link Merge} can add them up.
 */
public final class RunOutput {

  /** The length of an interval in histograms.hlog. */
  public static final Duration INTERVAL = Duration.ofSeconds(5);

  /** How often the memcache client's times are taken: every second, for the run's seconds ({@link LoadSeconds}). */
  private static final Duration TICK = Duration.ofSeconds(1);

  /**
   * The intervals without a step's line after which the console gets a progress line of its own: every 10 s, so that
   * a default BulkInsert (60 steps, a warm-up of some 30 s) prints about 130 lines from mvn to its summary.
   */
  static final int QUIET_INTERVALS = 2;

  /** The least move of the wall clock against the run's clock said as a step: less is the clocks' drift. */
  private static final Duration WALL_CLOCK_STEP = Duration.ofSeconds(1);

  /** The interval log's name in the run folder. */
  public static final String HISTOGRAMS = "histograms.hlog";

  private final String simulation;
  private final Settings settings;
  private final Injector injector;
  private final LatencyRecorder latencies = new LatencyRecorder();
  private final ProtocolErrors memcacheConnections = new ProtocolErrors();
  private final Map<Path, Results.KeyFile> keyFiles = new LinkedHashMap<>();
  private final ServerCounts serverCounts = new ServerCounts();
  private final GatlingFolder gatlingFolder = new GatlingFolder();
  private final List<PageAddition> pageAdditions = new ArrayList<>();
  private Instant loadStart;
  private Optional<Injector.Start> agreedStart = Optional.empty();
  private Path partFile;
  private HistogramLog histograms;
  private ScheduledExecutorService ticker;
  private long intervalStart;
  private long tickStart;
  private final LoadSeconds loadSeconds = new LoadSeconds();
  private ServerSeries servers = ServerSeries.NONE;
  private List<LoadColumn> loadsOwn = List.of();
  private List<Span> spans = List.of();
  private boolean memcacheCounted;
  private Optional<Progress> progress = Optional.empty();
  private long stepLinesAtTick;
  private long quietIntervals;
  private volatile Supplier<List<ServerReading>> serverReadings = List::of;

  private RunOutput(String simulation, Settings settings) {
    this.simulation = simulation;
    this.settings = settings;
    this.injector = Injector.from(settings);
  }

  /**
   * @param simulation the simulation's class: Gatling names the run folder after it
   * @param settings the run's settings, whose parameters results.json lists
   * @return the run's output, not started
   * @throws couchbench.startup.SettingsException when -Dinjector, -DstartAt or -DsetupTimeout cannot be used
   */
  public static RunOutput of(Class<? extends Simulation> simulation, Settings settings) {
    return new RunOutput(simulation.getSimpleName(), settings);
  }

  /** @return the simulation's name, its class's simple name: scenario and summary titles take it from here */
  public String simulation() {
    return simulation;
  }

  /** @return this run's injector: its share, its start, its one-time setup */
  public Injector injector() {
    return injector;
  }

  /**
   * @return where the memcache protocol sends its requests' times: give it to the protocol's timings. With
   *     -DclientTimes=false, nowhere: memcache requests are then at Gatling's whole milliseconds like HTTP ones, which
   *     is only of use to measure what the recording costs (bench/memcache-vs-memaslap.sh, TIMINGS=compare)
   */
  public synchronized MemcacheTimings memcacheTimings() {
    memcacheCounted = settings.booleanValue("clientTimes", true);
    return memcacheCounted ? latencies : MemcacheTimings.NONE;
  }

  /**
   * @return where the memcache protocol tallies each server's connections, opened, dropped and why, and opened again:
   *     give it to the protocol's connectionTally. results.json and the summary give them, and the console a line
   *     when one was dropped
   */
  public ProtocolErrors memcacheConnections() {
    return memcacheConnections;
  }

  /**
   * Reads a server's counter now, before the load, and again when the run ends; results.json then holds both against
   * the OK requests of the names given, which they should equal, and the summary says whether they do. The counter is
   * a cross-check, not a requirement: one that cannot be read (a server without it: read throws a
   * {@link OneLineException} saying so) is n/a with that reason, in one line now, in results.json and on the page, and
   * the run goes on. Call in before(), after any setup.
   *
   * @param counter what is counted, e.g. "memcache cmd_set"
   * @param read reads the counter from the server
   * @param requests the request names whose OK requests the counter counts (a warm-up's included)
   */
  public void countOnServer(String counter, LongSupplier read, String... requests) {
    serverCounts.before(counter, read, requests);
  }

  /**
   * Ends a key file the run wrote (see {@link KeyFile#write}), says where it went, and names it in results.json; call
   * in after(), before {@link #finish}.
   *
   * @param keys the key file
   * @param asNamed the key file as -DkeyFile (or its default) names it; one injector of several writes its own file
   * @param what what it holds, e.g. "keys" or "ids"
   */
  public synchronized void writeKeyFile(KeyFile keys, Path asNamed, String what) {
    long size = keys.size();
    Path written = keys.write();
    Console.say("key file: " + size + " acknowledged " + what + " written to " + written);
    keyFiles.put(written.toAbsolutePath(), new Results.KeyFile(asNamed.toString(), written.toString(), size));
  }

  /**
   * Marks the load's start (call at the end of before(), just before Gatling names its run folder); with -DstartAt,
   * waits for it first. No progress but the memcache requests' (where {@link #memcacheTimings} counts them).
   */
  public void loadStarts() {
    loadStarts(List.of());
  }

  /**
   * Marks the load's start, as {@link #loadStarts()}, and gives the console its progress from then on: the memcache
   * requests' counts (where {@link #memcacheTimings} records them) and the sources given, at the end of every step's
   * line ({@link Console#step}), and on a line of its own after every {@link #QUIET_INTERVALS} intervals without
   * a step's line.
   *
   * @param counted what the simulation counts itself, e.g. BulkInsert's writes and steps left
   */
  public synchronized void loadStarts(List<Progress.Source> counted) {
    List<Progress.Source> sources = new ArrayList<>();
    if (memcacheCounted) {
      sources.add(memcacheProgress());
    }
    sources.addAll(counted);
    progress = Progress.of(sources);
    progress.ifPresent(account -> Console.progressFrom(account::line));
    stepLinesAtTick = Console.stepLines();
    agreedStart = injector.awaitStart();
    loadStart = now();
    intervalStart = loadStart.toEpochMilli();
    tickStart = intervalStart;
    try {
      // Readable by all, as Gatling's files of the run are (a temporary file is by default its owner's only).
      partFile = Files.createTempFile("couchbench-" + simulation + "-", ".hlog.part",
          PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-r--r--")));
    } catch (IOException e) {
      throw new UncheckedIOException("creating a temporary histogram log", e);
    }
    partFile.toFile().deleteOnExit();
    histograms = HistogramLog.create(partFile, intervalStart);
    ticker = Executors.newSingleThreadScheduledExecutor(task -> {
      Thread thread = new Thread(task, "couchbench-histograms");
      thread.setDaemon(true);
      return thread;
    });
    // On the run clock's whole seconds, so that each tick's requests fall in one second of the run's seconds.
    long toNextSecond = TICK.toMillis() - Math.floorMod(intervalStart, TICK.toMillis());
    ticker.scheduleAtFixedRate(this::tick, toNextSecond, TICK.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Takes the memcache client's times of the second just ended into the run's seconds, and into the interval of
   * histograms.hlog, which is written every {@link #INTERVAL} (and at the end: last).
   */
  private synchronized void takeSecond(boolean last) {
    long now = RunClock.millis();
    latencies.takeSecond(tickStart, now, loadSeconds, LiveRoute.current());
    tickStart = now;
    if (last || now - intervalStart >= INTERVAL.toMillis() - TICK.toMillis() / 2) {
      latencies.takeInterval(intervalStart, now, histograms);
      histograms.flush();
      intervalStart = now;
    }
  }

  /**
   * Every second: takes it, and after every {@link #QUIET_INTERVALS} intervals in which no step's line said the
   * progress, prints it on a line of its own.
   */
  private synchronized void tick() {
    long intervalBefore = intervalStart;
    try {
      takeSecond(false);
    } catch (RuntimeException e) {
      // Said, not thrown: the executor would cancel every later tick, and the rest of the run's times would be taken
      // at its end, as one second.
      Console.say("results: a second's memcache times not taken (" + e + "): they go with the next");
      return;
    }
    if (intervalStart == intervalBefore) {
      return;
    }
    long stepLines = Console.stepLines();
    quietIntervals = stepLines == stepLinesAtTick ? quietIntervals + 1 : 0;
    stepLinesAtTick = stepLines;
    if (quietIntervals > 0 && quietIntervals % QUIET_INTERVALS == 0) {
      progress.ifPresent(account -> Console.say("progress: " + account.line()));
    }
  }

  /**
   * The servers' figures read once a second during the load, for the run's seconds: give them before
   * {@link #finish}.
   *
   * @param sampled what was read
   */
  public synchronized void serverSeries(ServerSeries sampled) {
    servers = sampled;
  }

  /** @return the servers' figures read once a second during the load, once given; {@link ServerSeries#NONE} before */
  public synchronized ServerSeries serverSeries() {
    return servers;
  }

  /**
   * The load's own figures second by second, for the run's seconds beside its requests': give them before
   * {@link #finish}.
   *
   * @param columns each figure's column
   */
  public synchronized void loadsOwnSeconds(List<LoadColumn> columns) {
    loadsOwn = List.copyOf(columns);
  }

  private Progress.Source memcacheProgress() {
    return new Progress.Source() {
      @Override
      public String counted() {
        return "memcache requests";
      }

      @Override
      public Progress.Counts counts() {
        return latencies.counts();
      }
    };
  }

  /**
   * @return what hears Gatling's id of this run, which names the run's folder, and whom Gatling's records go to live:
   *     give it to {@link GatlingRunId}
   */
  public GatlingRunId.Listener gatlingRunId() {
    return new GatlingRunId.Listener() {
      @Override
      public void named(String runId) {
        gatlingFolder.named(runId);
      }

      @Override
      public void unknown(String why) {
        gatlingFolder.unknown(why);
      }

      @Override
      public Optional<ResponseTap.Records> live() {
        return LiveRoute.served().map(figures -> new ResponseTap.Records() {
          @Override
          public void response(String name, long startMillis, long endMillis, boolean ok) {
            // The memcache client's own times, finer than Gatling's milliseconds, come each second instead.
            if (!latencies.times(name)) {
              figures.response(name, startMillis, endMillis, ok);
            }
          }

          @Override
          public void user(String scenario, boolean start) {
            figures.user(scenario, start);
          }
        });
      }
    };
  }

  /**
   * Sends the run's requests to live metrics too, as they are recorded: call before the load starts.
   *
   * @param figures where they go
   */
  public void serveLive(LiveFigures figures) {
    LiveRoute.to(figures);
  }

  /** @param latest the servers' figures of the sampler's last second, for live metrics; call as sampling starts */
  public void serverReadingsFrom(Supplier<List<ServerReading>> latest) {
    serverReadings = latest;
  }

  /** @return the servers' figures of the sampler's last second; none where no sampler runs */
  public List<ServerReading> serverReadings() {
    return serverReadings.get();
  }

  /**
   * A stretch of the run shaded on its seconds charts, e.g. a background task's.
   *
   * @param label its name on the charts
   * @param fromMillis its start, epoch milliseconds
   * @param toMillis its end, epoch milliseconds
   */
  public record Span(String label, long fromMillis, long toMillis) {}

  /**
   * Shades stretches of the run on its seconds charts (requests, latency, the servers): give them before
   * {@link #finish}.
   *
   * @param shaded each stretch, e.g. each background task from its start to its end
   */
  public synchronized void shadeOnSecondsCharts(List<Span> shaded) {
    spans = List.copyOf(shaded);
  }

  /** @return the stretches shaded so far ({@link #shadeOnSecondsCharts}), e.g. for a load's figures of them */
  public synchronized List<Span> shadedSpans() {
    return spans;
  }

  /** Where a run's files went: beside Gatling's report, or in a folder of couchbench's own. */
  public record Written(Path folder, boolean besideGatlingReport) {}

  /**
   * Counts request names apart from the load's requests in the run's seconds: their entries (a notification timed
   * from a write's acknowledgement, a verdict on a whole wait) get columns and charts of their own, and background
   * work's windows leave them out. Call before the load.
   *
   * @param kind what they are
   * @param names their request names, as Gatling's report names them
   */
  public void countApart(SeriesKind kind, Collection<String> names) {
    loadSeconds.apart(kind, names);
  }

  /**
   * @return the load's seconds so far: its requests' outcomes (those counted apart left out, {@link #countApart}), by
   *     the second of the run's clock they ended in
   */
  public List<LoadSeconds.Second> loadSeconds() {
    return loadSeconds.seconds(SeriesKind.REQUEST);
  }

  /** @return when the load started, on the run's clock ({@link RunClock}), epoch-like milliseconds */
  public long loadStartMillis() {
    return loadStart.toEpochMilli();
  }

  /** What else a run's page shows, from the run's results before its results.json is written. */
  @FunctionalInterface
  public interface PageAddition {

    /**
     * @param page the page so far
     * @param results the run's results
     * @param folder the run folder the page goes to
     * @return the page with the addition
     */
    SummaryPage addTo(SummaryPage page, Results results, Path folder);
  }

  /**
   * @param addition what else the page shows (background work, the regression gate's verdict); applied after the
   *     page's own parts, in the order given
   */
  public synchronized void beforePageWritten(PageAddition addition) {
    pageAdditions.add(addition);
  }

  /**
   * Writes the run's files beside Gatling's report, as {@link #finish(List, Summary, Object, UnaryOperator)} does, with
   * nothing added to its results.
   *
   * @param targets the servers loaded, as the run describes them (never with a password)
   * @param summary the simulation's summary
   * @param figures the simulation's own figures, for results.json and the page
   * @return where they went
   */
  public <F> Written finish(List<String> targets, Summary<F> summary, F figures) {
    return finish(targets, summary, figures, UnaryOperator.identity());
  }

  /**
   * Writes the run's files into Gatling's run folder, beside its report, and prints where they are; call from
   * after(). The page is built from the results and the figures as results.json holds them, as {@link Merge} builds a
   * merged run's. Where they cannot go beside Gatling's report (its run id unknown, its folder not under the results
   * root, or not writable), they go to a folder of couchbench's own under the results root, and a warning says why.
   *
   * @param targets the servers loaded, as the run describes them (never with a password)
   * @param summary the simulation's summary
   * @param figures the simulation's own figures, for results.json and the page
   * @param added what the run's extensions add to its results (a cluster's figures per node), before results.json and
   *     the page are made from them
   * @return where they went
   */
  public synchronized <F> Written finish(List<String> targets, Summary<F> summary, F figures,
      UnaryOperator<Results> added) {
    if (loadStart == null) {
      throw new IllegalStateException("RunOutput.finish before loadStarts: call loadStarts() at the end of before()");
    }
    ticker.shutdownNow();
    Console.progressFrom(null);
    takeSecond(true);
    ServerCounts.Read counted = serverCounts.after();
    sayWallClockStep();
    List<Results.ServerConnections> connections = connections(memcacheConnections);
    if (connections.stream().anyMatch(server -> server.droppedInAll() > 0)) {
      Console.say("memcache connections dropped: " + connections.stream().map(Results.ServerConnections::describe)
          .collect(Collectors.joining("; ")));
    }
    Map<String, Outcomes> clientTimes = latencies.totals();
    Optional<RunLog> log = readLog(clientTimes.keySet());
    histograms.close();
    String[] notBeside = new String[1];
    Path folder = gatlingFolder.forFiles(simulation, counted.at(), why -> notBeside[0] = why);
    if (notBeside[0] != null) {
      Console.warn("results not beside Gatling's report (" + notBeside[0] + "): written to "
          + folder.toAbsolutePath().normalize() + " instead");
    }
    Results results = log.map(read -> results(folder, read, targets, clientTimes, counted, connections))
        .orElseGet(() -> withoutLog(targets, counted.at(), connections)).withFigures(ResultsFile.tree(figures));
    results = added.apply(results);
    SummaryPage page = summary.page(results, ResultsFile.figures(folder, results, summary.figuresType()))
        .warningsFirst(Console.warnings());
    if (log.isPresent()) {
      page = ResultsPage.addTo(page, results, Entries.okTimes(log.get(), clientTimes));
    } else {
      page = page.warning("Gatling's simulation.log could not be read: no request figures from it in results.json.");
    }
    SecondsPage.Seconds seconds = SecondsPage.of(loadSeconds, loadsOwn, servers, loadStart.toEpochMilli());
    writeSeconds(folder, seconds.table());
    page = SecondsPage.addTo(page, seconds, servers.notes(), spans, loadStart.toEpochMilli());
    for (PageAddition addition : pageAdditions) {
      page = addition.addTo(page, results, folder);
    }
    move(partFile, folder.resolve(HISTOGRAMS));
    Console.say("results: " + ResultsFile.write(folder, results).toAbsolutePath() + " and " + HISTOGRAMS);
    RunFolders.lastRunIfUnderRoot(folder);
    // Gatling's global figures and its report's path come after this hook: the summary's path is said last.
    AtExit.say("summary: " + (notBeside[0] == null ? page.link("Gatling's report for this run", "index.html") : page)
        .writeTo(folder).toAbsolutePath());
    return new Written(folder, notBeside[0] == null);
  }

  /** Gatling's simulation.log of this run, read once; empty, with a line saying why, when it cannot be. */
  private Optional<RunLog> readLog(Set<String> clientTimed) {
    Optional<Path> folder = gatlingFolder.log();
    if (folder.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(SimulationLog.read(folder.get(), clientTimed, histograms, loadSeconds,
          RunClock::fromGatling));
    } catch (ResultsException e) {
      Console.say(e.getMessage() + " (results.json without the requests' figures)");
      return Optional.empty();
    }
  }

  private static Instant now() {
    return Instant.ofEpochMilli(RunClock.millis());
  }

  /**
   * Says when the machine's wall clock moved against the run's clock since the run started (a step): the run's
   * figures are on the run's clock, but a log or a report stamped with the wall clock is then that far from them.
   */
  private static void sayWallClockStep() {
    long ahead = System.currentTimeMillis() - RunClock.millis();
    if (Math.abs(ahead) >= WALL_CLOCK_STEP.toMillis()) {
      Console.say(String.format(Locale.ROOT, "clock: the machine's wall clock moved %+.1f s during the run (a step);"
          + " the run's figures are on its own clock, read once from the wall clock at its start", ahead / 1000.0));
    }
  }

  private static void writeSeconds(Path folder, Table seconds) {
    try {
      Files.writeString(folder.resolve(SecondsPage.FILE), seconds.toCsv());
    } catch (IOException e) {
      Console.say(SecondsPage.FILE + " not written: " + e.getMessage());
    }
  }

  private Results results(Path folder, RunLog log, List<String> targets, Map<String, Outcomes> clientTimes,
      ServerCounts.Read counted, List<Results.ServerConnections> connections) {
    // Gatling's start on the run's clock, as the run's other series are.
    Instant start = Instant.ofEpochMilli(RunClock.fromGatling(log.startEpochMillis()));
    List<Results.Entry> entries = Entries.of(log, clientTimes, start.toEpochMilli());
    List<Results.ServerCount> serverCounts = counted.against(entries);
    return new Results(Results.SCHEMA, run(targets, log.gatlingVersion(), start, start.plusMillis(log.lastEndMillis())),
        entries, log.errors(), keyFilesFrom(folder), serverCounts, null, List.of(), connections);
  }

  /** The results of a run whose simulation.log could not be read: no entries, for the page alone. */
  private Results withoutLog(List<String> targets, Instant end, List<Results.ServerConnections> connections) {
    return new Results(Results.SCHEMA, run(targets, "unknown", loadStart, end), List.of(), Map.of(), List.of(),
        List.of(), null, List.of(), connections);
  }

  /** Each memcache server's connections as the client tallied them, the causes of their drops in words. */
  static List<Results.ServerConnections> connections(ProtocolErrors tally) {
    List<Results.ServerConnections> connections = new ArrayList<>();
    tally.byServer().forEach((server, counts) -> {
      Map<String, Long> dropped = new LinkedHashMap<>();
      counts.dropped().forEach((cause, n) -> dropped.put(cause.words(), n));
      connections.add(new Results.ServerConnections(server, counts.opened(), dropped, counts.reopened(),
          counts.firstReply()));
    });
    return connections;
  }

  private Results.Run run(List<String> targets, String gatlingVersion, Instant start, Instant end) {
    return new Results.Run(simulation, settings.parameters(), List.copyOf(targets),
        new Results.Versions(couchbenchVersion(), gatlingVersion, Runtime.version().toString()),
        start.toString(), end.toString(),
        injector.share().alone() && agreedStart.isEmpty() ? null : injector.share().toString(),
        (int) INTERVAL.toSeconds(), HISTOGRAMS, agreedStart.map(at -> at.at().toString()).orElse(null),
        agreedStart.map(at -> at.late().toMillis()).orElse(null));
  }

  /**
   * The key files with their paths relative to the run folder: a run's working folder moved whole (collected from a
   * Kubernetes pod) keeps them valid for {@link Merge}.
   */
  private List<Results.KeyFile> keyFilesFrom(Path folder) {
    Path from = folder.toAbsolutePath().normalize();
    return keyFiles.entrySet().stream().map(file -> new Results.KeyFile(file.getValue().keyFile(),
        from.relativize(file.getKey().normalize()).toString(), file.getValue().keys())).toList();
  }

  private static String couchbenchVersion() {
    try (InputStream in = RunOutput.class.getResourceAsStream("/couchbench/version.properties")) {
      Properties properties = new Properties();
      if (in != null) {
        properties.load(in);
      }
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static void move(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new ResultsException(to + ": cannot be written (" + e.getMessage() + ")");
    }
  }
}
