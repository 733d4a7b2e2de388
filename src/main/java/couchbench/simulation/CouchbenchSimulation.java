package couchbench.simulation;

import static io.gatling.javaapi.core.CoreDsl.exec;

import couchbench.background.BackgroundPage;
import couchbench.background.BackgroundPlan;
import couchbench.background.BackgroundTask;
import couchbench.background.BackgroundWork;
import couchbench.gatling.GatlingRunId;
import couchbench.history.Gate;
import couchbench.history.History;
import couchbench.resources.ServerSampler;
import couchbench.results.Progress;
import couchbench.results.RunFolders;
import couchbench.results.RunOutput;
import couchbench.results.Summary;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.startup.OneLineException;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.core.scenario.SimulationParams;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What every couchbench simulation shares, written once: the settings, read and printed at the start; the targets,
 * found or started; the run's output beside Gatling's report; and the run's frame: {@link #prepare} before the load,
 * {@link #report} and {@link #cleanUp} after it. A simulation extends it and declares its load in Gatling's own words:
 * parameters, protocol, chains, scenario, injection, {@code setUp(...).protocols(...).assertions(...)}.
 *
 * <p>A start step that fails (a wrong setting, a target that does not answer) stops the run with one line and no stack
 * trace ({@link #orExit}).
 */
public abstract class CouchbenchSimulation extends Simulation {

  /**
   * The exit code of a run whose files could not go beside Gatling's report: they are in a folder of couchbench's own,
   * which the run's warning names (or, where even that could not be written, the line says why). Gatling's own codes
   * are 1 (a crash) and 2 (assertions failed).
   */
  public static final int RESULTS_NOT_BESIDE_REPORT = 4;

  private Optional<CouchTarget> couchTarget = Optional.empty();
  private final List<MemcacheTarget> memcacheTargets = new ArrayList<>();
  private Optional<ClusterReport> cluster = Optional.empty();
  private Optional<ServerSampler> sampler = Optional.empty();

  /** The run's settings, printed once (passwords masked). */
  protected final Settings settings = RunStart.settings();

  /** What the run leaves beside Gatling's report: summary.html, results.json, histograms.hlog. */
  protected final RunOutput run = orExit(() -> RunOutput.of(getClass(), settings));

  /** -Dbackground's tasks, started by the run while its load runs. */
  private final Optional<BackgroundPlan> background = orExit(() -> BackgroundPlan.from(settings));

  private Optional<BackgroundWork> backgroundWork = Optional.empty();
  /** The cluster node -Dbackground=nodesync restarts, chosen before the load. */
  private Optional<String> restartedNode = Optional.empty();
  /** Whether the simulation marks where its steady load begins ({@link #steadyLoadBegins}); else it is the start. */
  private boolean steadyLoadMarked;

  /** -Dbaseline's regression gate: the run judged against its baseline as its page is written. */
  private final Optional<Gate> gate = orExit(() -> Gate.from(settings, RunFolders.resultsRoot()));

  /**
   * What a simulation's summary reports after the load.
   *
   * @param targets the servers loaded, as the run describes them (never with a password)
   * @param summary the simulation's summary page
   * @param figures the simulation's own figures, for results.json and the page
   * @param <F> the figures' type
   */
  public record Report<F>(List<String> targets, Summary<F> summary, F figures) {}

  /**
   * Runs one step of the start; on failure, prints why and exits with status 1.
   *
   * @param step e.g. {@code () -> SiegePlan.from(settings)}
   * @param <T> what the step returns
   * @return what it returned
   */
  protected static <T> T orExit(Supplier<T> step) {
    return Startup.orExit(step);
  }

  /**
   * @return the CouchDB server of -Dcouchdb.url (one node, or several of a cluster, which the run then reports per
   *     node), or a local stand-in started for the run
   */
  protected final CouchTarget couchdbTarget() {
    couchTarget = Optional.of(orExit(() -> Targets.couchdb(settings)));
    return couchTarget.get();
  }

  /**
   * The CouchDB databases the load uses, still there when {@link #report} is called: a cluster's run reads their
   * doc_count through every node, and their shards. None by default.
   *
   * @return the database names
   */
  protected List<String> couchDatabases() {
    return List.of();
  }

  /** @return the memcache servers of -Dmemcache.servers, or a local memcached started for the run */
  protected final MemcacheTarget memcacheTarget() {
    MemcacheTarget target = orExit(() -> Targets.memcache(settings));
    memcacheTargets.add(target);
    return target;
  }

  /** @return the simulation's name, its class's simple name, which names its scenarios and summary */
  protected final String simulation() {
    return run.simulation();
  }

  /**
   * What the simulation counts itself as the load runs, for the console's progress line (the memcache requests are
   * counted by couchbench's client already). None by default.
   *
   * @return the sources, e.g. BulkInsert's writes and steps left
   */
  protected List<Progress.Source> progress() {
    return List.of();
  }

  /** Before the load: what it needs set up (databases, counters read). Nothing by default. */
  protected void prepare() {}

  /**
   * After the load: what the summary reports. Key files are written here, before the summary names them.
   *
   * @return the report
   */
  protected abstract Report<?> report();

  /**
   * Where a load that first fills its database (Workload's load phase) begins its steady part: background work counts
   * its times from the first user that passes here, not from the load's start. Put it at the head of the steady
   * scenario; a simulation without it is steady from its start.
   *
   * @return the step, which changes nothing in the session
   */
  protected final ChainBuilder steadyLoadBegins() {
    steadyLoadMarked = true;
    return exec(session -> {
      backgroundWork.ifPresent(BackgroundWork::steadyLoadBegins);
      return session;
    });
  }

  /** After the summary: what the load left to remove (databases). Nothing by default. */
  protected void cleanUp() {}

  /** Gatling's parameters of this simulation, with the hook that tells {@link #run} Gatling's id of the run. */
  @Override
  public final SimulationParams params(String name) {
    return GatlingRunId.toldTo(super.params(name), run);
  }

  @Override
  public final void before() {
    Startup.orExit(this::checkBackground);
    Startup.orExit(this::prepare);
    cluster = couchTarget.flatMap(ClusterReport::before);
    // Started before the load's start (and -DstartAt's wait), so that its setup does not delay the load.
    if (orExit(() -> settings.booleanValue("sampleServers", true))) {
      sampler = Optional.of(orExit(() -> ServerSampler.start(couchTarget, memcacheTargets)));
    }
    gate.ifPresent(judge -> run.beforePageWritten((page, results, folder) -> judge.addTo(page, results, folder,
        AtExit::exitWith)));
    run.loadStarts(progress());
    backgroundWork = background.map(plan -> BackgroundWork.start(plan, couchTarget.orElseThrow(),
        couchDatabases().get(0), restartedNode, Console::say));
    if (!steadyLoadMarked) {
      backgroundWork.ifPresent(BackgroundWork::steadyLoadBegins);
    }
  }

  // Background work works on the load's first CouchDB database, in a run of CouchDB alone; checked before anything is
  // set up.
  private void checkBackground() {
    String fix = "give it to CouchGet, CouchSet, Workload (-Dsystem=couchdb), Query or Changes";
    if (background.isPresent() && (couchTarget.isEmpty() || couchDatabases().isEmpty())) {
      throw new SettingsException("-Dbackground: " + simulation() + " loads no CouchDB database here; " + fix);
    }
    if (background.isPresent() && !memcacheTargets.isEmpty()) {
      throw new SettingsException("-Dbackground: " + simulation() + " loads memcache in the same run, and the"
          + " background work is CouchDB's: it would run on into memcache's part; " + fix);
    }
    restartedNode = background.flatMap(plan -> BackgroundWork.nodeToRestart(plan, couchTarget.orElseThrow()));
  }

  @Override
  public final void after() {
    try {
      sampler.ifPresent(running -> run.serverSeries(running.stop()));
      // Stopped as the load ends, before the report reads the server's counts: no task runs past the load.
      backgroundWork.ifPresent(work -> {
        List<BackgroundTask> tasks = work.stop();
        run.shadeOnSecondsCharts(BackgroundPage.spans(tasks));
        run.beforePageWritten((page, results, folder) -> BackgroundPage.addTo(page, background.orElseThrow(), tasks,
            run.loadSeconds(), run.loadStartMillis(), work.steadyMillis(), results.run().end() == null
                ? System.currentTimeMillis() : Instant.parse(results.run().end()).toEpochMilli()));
      });
      finish(report());
    } finally {
      cleanUp();
    }
  }

  private <F> void finish(Report<F> report) {
    AtExit.say("history of the runs kept: mvn -q exec:java@history writes " + RunFolders.resultsRoot()
        .resolve(History.FOLDER).resolve(History.PAGE));
    try {
      RunOutput.Written written = run.finish(report.targets(), report.summary(), report.figures(),
          cluster.map(nodes -> nodes.after(couchDatabases())).orElse(null));
      if (!written.besideGatlingReport()) {
        AtExit.exitWith(RESULTS_NOT_BESIDE_REPORT);
      }
    } catch (OneLineException e) {
      // Gatling's report is still written; the run then ends with this code, not 0.
      Console.say("results not written: " + e.getMessage());
      AtExit.exitWith(RESULTS_NOT_BESIDE_REPORT);
    }
  }
}
