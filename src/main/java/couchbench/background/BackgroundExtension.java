package couchbench.background;

import couchbench.report.SummaryPage;
import couchbench.results.Results;
import couchbench.run.RunContext;
import couchbench.run.RunExtension;
import couchbench.startup.Console;
import couchbench.startup.RunClock;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The run extension of -Dbackground: CouchDB's background work, or the memcache cache emptied, started during the load
 * ({@link BackgroundWork}).
 */
public final class BackgroundExtension implements RunExtension {

  /** How `exec:java@extensions` lists it. */
  public static final Spec SPEC = new Spec("background",
      "-Dbackground=compact,viewbuild,replicate,nodesync,restart-cache",
      "starts CouchDB's background work (or empties the memcache cache) during the load, follows it to its end, shades"
          + " it on the seconds charts and compares the load before, during and after it",
      "one thread; a read of _active_tasks (or _scheduler/jobs, or the node's copies) every 100 ms while a task runs,"
          + " and the task's own work on the server, which is the point");

  private static final String FIX = "give it to CouchGet, CouchSet, Workload (-Dsystem=couchdb), Query or Changes";

  private final BackgroundPlan plan;
  private Optional<String> restartedNode = Optional.empty();
  private BackgroundWork work;
  private List<BackgroundTask> tasks = List.of();
  private RunContext run;

  private BackgroundExtension(BackgroundPlan plan) {
    this.plan = plan;
  }

  /**
   * @param settings the run's settings
   * @return the extension, with -Dbackground
   * @throws SettingsException for tasks or times that do not parse
   */
  public static Optional<RunExtension> from(Settings settings) {
    return BackgroundPlan.from(settings).map(BackgroundExtension::new);
  }

  // CouchDB's background work works on the load's first CouchDB database, in a run of CouchDB alone; restart-cache on
  // the memcache servers the load reads.
  @Override
  public void check(RunContext run) {
    if (plan.emptiesTheCache() && run.memcache().isEmpty()) {
      throw new SettingsException("-Dbackground=restart-cache: " + run.simulation() + " loads no memcache server here;"
          + " give it to CacheAside, or to a simulation of memcache (MemGet, Workload -Dsystem=memcache)");
    }
    if (!plan.worksOnCouchDb()) {
      return;
    }
    if (run.couchdb().isEmpty() || run.couchDatabases().isEmpty()) {
      throw new SettingsException("-Dbackground: " + run.simulation() + " loads no CouchDB database here; " + FIX);
    }
    if (!run.memcache().isEmpty()) {
      throw new SettingsException("-Dbackground: " + run.simulation() + " loads memcache in the same run, and the"
          + " background work is CouchDB's: it would run on into memcache's part; " + FIX
          + " (restart-cache alone empties memcache's cache)");
    }
    restartedNode = BackgroundWork.nodeToRestart(plan, run.couchdb().orElseThrow());
  }

  @Override
  public void loadStarts(RunContext run) {
    this.run = run;
    work = BackgroundWork.start(plan, run.couchdb(), run.memcache(),
        run.couchDatabases().isEmpty() ? "" : run.couchDatabases().get(0), restartedNode, Console::say);
  }

  @Override
  public void steadyLoadBegins() {
    work.steadyLoadBegins();
  }

  // Stopped as the load ends, before the report reads the server's counts: no task runs past the load.
  @Override
  public void loadEnds(RunContext run) {
    tasks = work.stop();
    run.output().shadeOnSecondsCharts(BackgroundPage.spans(tasks));
  }

  @Override
  public SummaryPage addTo(SummaryPage page, Results results, Path folder) {
    long end = results.run().end() == null ? RunClock.millis() : Instant.parse(results.run().end()).toEpochMilli();
    return BackgroundPage.addTo(page, plan, tasks, run.output().loadSeconds(), run.output().loadStartMillis(),
        work.steadyMillis(), end);
  }
}
