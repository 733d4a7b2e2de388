package couchbench.simulation;

import static io.gatling.javaapi.core.CoreDsl.exec;

import couchbench.gatling.GatlingRunId;
import couchbench.memcache.MemcacheProtocolBuilder;
import couchbench.results.Progress;
import couchbench.results.Results;
import couchbench.results.RunOutput;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.run.RunContext;
import couchbench.run.RunExtension;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.startup.OneLineException;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import couchbench.variants.RestoreFile;
import couchbench.variants.VariantsRun;
import io.gatling.core.scenario.SimulationParams;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What every couchbench simulation shares, written once: the settings, read and printed at the start; the targets,
 * found or started; the run's output beside Gatling's report; the run's extensions ({@link RunExtensions}: the
 * servers sampled, background work, the cluster's report, the gate, the history line), each switched on by its
 * setting; and the run's frame: {@link #prepare} before the load, {@link #report} and {@link #cleanUp} after it. A
 * simulation extends it and declares its load in Gatling's own words: parameters, protocol, chains, scenario,
 * injection, {@code setUp(...).protocols(...).assertions(...)}. One whose load is an {@link ExperimentLoad} gives it
 * to {@link #runs}, and the frame prepares, follows, reports and cleans it up.
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

  /** A check made after the load failed ({@link couchbench.results.Summary#failure}): Gatling's code for assertions. */
  public static final int CHECK_FAILED = 2;

  private Optional<CouchTarget> couchTarget = Optional.empty();
  private final List<MemcacheTarget> memcacheTargets = new ArrayList<>();
  private Optional<ExperimentLoad<?>> experiment = Optional.empty();

  /** The run's settings, printed once (passwords masked). */
  protected final Settings settings = RunStart.settings();

  {
    // With -Dvariants this JVM runs the rounds as runs of their own, judges them and exits: nothing below is made.
    VariantsRun.conductIfAsked(getClass().getName(), settings);
  }

  /** What the run leaves beside Gatling's report: summary.html, results.json, histograms.hlog. */
  protected final RunOutput run = orExit(() -> RunOutput.of(getClass(), settings));

  /** What the run does besides its load, switched on by its settings; their settings checked before anything. */
  private final List<RunExtension> extensions = orExit(() -> RunExtensions.switchedOn(settings));

  private RunContext context;
  /** Whether the simulation marks where its steady load begins ({@link #steadyLoadBegins}); else it is the start. */
  private boolean steadyLoadMarked;

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
    couchTarget = Optional.of(orExit(() -> {
      CouchTarget target = Targets.couchdb(settings);
      RestoreFile.restoreIfLeft(target);
      return target;
    }));
    return couchTarget.get();
  }

  /** @return the memcache servers of -Dmemcache.servers, or a local memcached started for the run */
  protected final MemcacheTarget memcacheTarget() {
    MemcacheTarget target = orExit(() -> Targets.memcache(settings));
    memcacheTargets.add(target);
    return target;
  }

  /**
   * The experiment's load this simulation runs: the frame prepares it and says it in one line before the load, gives
   * the console its progress, makes the page from its figures and summary after the load, and cleans it up.
   *
   * @param load the load
   * @param <L> its type
   * @return the load, for the simulation's chains
   */
  protected final <L extends ExperimentLoad<?>> L runs(L load) {
    experiment = Optional.of(load);
    return load;
  }

  /**
   * @param target memcache servers of the run, from {@link #memcacheTarget}
   * @return their Gatling protocol, its requests timed into the run's results and its connections tallied there
   */
  protected final MemcacheProtocolBuilder memcacheProtocol(MemcacheTarget target) {
    return target.protocol().timings(run.memcacheTimings()).connectionTally(run.memcacheConnections());
  }

  /** @return the simulation's name, its class's simple name, which names its scenarios and summary */
  protected final String simulation() {
    return run.simulation();
  }

  /**
   * The CouchDB databases the load uses, still there when {@link #report} is called: a cluster's run reads their
   * doc_count through every node, and their shards; background work works on the first. Those of the load given to
   * {@link #runs}, or none.
   *
   * @return the database names
   */
  protected List<String> couchDatabases() {
    return experiment.map(ExperimentLoad::couchDatabases).orElse(List.of());
  }

  /**
   * What the simulation counts itself as the load runs, for the console's progress line (the memcache requests are
   * counted by couchbench's client already). That of the load given to {@link #runs}, or none.
   *
   * @return the sources, e.g. BulkInsert's writes and steps left
   */
  protected List<Progress.Source> progress() {
    return experiment.map(ExperimentLoad::progress).orElse(List.of());
  }

  /** Before the load: what it needs set up (databases, counters read). The load given to {@link #runs}, or nothing. */
  protected void prepare() {
    experiment.ifPresent(load -> {
      load.prepare();
      load.countedApart().forEach(run::countApart);
      Console.say("load: " + load.describe());
    });
  }

  /**
   * After the load: what the summary reports. Key files are written here, before the summary names them. That of the
   * load given to {@link #runs}, against the servers the run loaded.
   *
   * @return the report
   */
  protected Report<?> report() {
    return reportOf(experiment.orElseThrow(() -> new IllegalStateException(simulation() + " gives no load to runs()"
        + " and does not override report()")));
  }

  private <F> Report<F> reportOf(ExperimentLoad<F> load) {
    List<String> targets = new ArrayList<>();
    couchTarget.ifPresent(target -> targets.add(target.describe()));
    memcacheTargets.forEach(target -> targets.add(target.describe()));
    return new Report<>(targets, load.summary(), load.figures());
  }

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
      extensions.forEach(RunExtension::steadyLoadBegins);
      return session;
    });
  }

  /** After the summary: what the load left to remove (databases). The load given to {@link #runs}, or nothing. */
  protected void cleanUp() {
    experiment.ifPresent(ExperimentLoad::cleanUp);
  }

  /** Gatling's parameters of this simulation, with the hook that tells {@link #run} Gatling's id of the run. */
  @Override
  public final SimulationParams params(String name) {
    return GatlingRunId.toldTo(super.params(name), run.gatlingRunId());
  }

  @Override
  public final void before() {
    context = new RunContext(simulation(), settings, couchTarget, memcacheTargets, couchDatabases(), List.of(), run);
    // Checked before anything is set up, so that a refusal leaves nothing behind.
    extensions.forEach(extension -> orExit(() -> {
      extension.check(context);
      return extension;
    }));
    Startup.orExit(this::prepare);
    context = context.withOtherLocalServers(experiment.map(ExperimentLoad::otherLocalServers).orElse(List.of()));
    extensions.forEach(extension -> orExit(() -> {
      extension.loadStarts(context);
      return extension;
    }));
    extensions.forEach(extension -> run.beforePageWritten(extension::addTo));
    run.loadStarts(progress());
    if (!steadyLoadMarked) {
      extensions.forEach(RunExtension::steadyLoadBegins);
    }
  }

  @Override
  public final void after() {
    try {
      extensions.forEach(extension -> extension.loadEnds(context));
      experiment.ifPresent(load -> run.loadsOwnSeconds(load.secondsColumns()));
      finish(report());
    } finally {
      cleanUp();
      extensions.forEach(extension -> extension.runEnds(context));
    }
  }

  private <F> void finish(Report<F> report) {
    // Said among the run's last lines, after the reports; its code comes before any other the run asks for.
    report.summary().failure(report.figures()).ifPresent(why -> {
      AtExit.say("FAILED: " + why);
      AtExit.exitWith(CHECK_FAILED);
    });
    try {
      RunOutput.Written written = run.finish(report.targets(), report.summary(), report.figures(), results -> {
        Results added = results;
        for (RunExtension extension : extensions) {
          added = extension.addTo(added);
        }
        return added;
      });
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
