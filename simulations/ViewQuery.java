import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.results.RunOutput;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import couchbench.viewquery.IndexBuild;
import couchbench.viewquery.ViewQueryLoad;
import couchbench.viewquery.ViewQueryPlan;
import couchbench.viewquery.ViewQuerySummary;
import couchbench.viewquery.ViewSetup;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * Seed 001: httperf against a CouchDB view, a constant rate of new connections, each sending its
 * calls and closing; httperf's figures beside Gatling's report. See docs/viewquery.md.
 */
public class ViewQuery extends Simulation {

  private final Settings settings = Startup.settings();
  private final ViewQueryPlan plan = Startup.orExit(() -> ViewQueryPlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(ViewQuery.class, settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final ViewQueryLoad load = new ViewQueryLoad(plan, couchdb);
  private IndexBuild indexBuild;
  private double cpuAtStart;

  {
    setUp(load.population())
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    // The first query builds the view's index: timed here, apart from the measured load.
    indexBuild = Startup.orExit(() -> ViewSetup.prepare(new CouchDbClient(couchdb), plan, run.injector()));
    Console.say(indexBuild.describe());
    load.expectRows(indexBuild.totalRows());
    Console.say(plan.describe());
    cpuAtStart = ViewQuerySummary.cpuSeconds();
    run.loadStarts();
  }

  @Override
  public void after() {
    double cpuSeconds = ViewQuerySummary.cpuSeconds() - cpuAtStart;
    run.finish(List.of(couchdb.describe()),
        log -> ViewQuerySummary.page(plan, couchdb, indexBuild, load, cpuSeconds, log));
  }
}
