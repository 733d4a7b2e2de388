import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.results.RunOutput;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import couchbench.viewquery.HttperfFigures;
import couchbench.viewquery.IndexBuild;
import couchbench.viewquery.ViewQueryChains;
import couchbench.viewquery.ViewQueryPlan;
import couchbench.viewquery.ViewQuerySummary;
import couchbench.viewquery.ViewSetup;
import io.gatling.javaapi.core.ScenarioBuilder;
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
  private final ViewQueryChains view = new ViewQueryChains(plan, couchdb);
  private IndexBuild indexBuild;
  private double cpuAtStart;

  /** httperf's connection: a user of its own, its calls one after the other, closed as the user ends. */
  private final ScenarioBuilder connection = scenario(run.simulation())
      .exec(view.connectionOpens())
      .repeat(plan.callsPerConn()).on(view.query())
      .exec(view.connectionCloses());

  {
    // An open model, as httperf's --rate: new connections arrive whatever the replies do.
    setUp(connection.injectOpen(rampUsers(plan.conns()).during(plan.duration())))
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    // The first query builds the view's index: timed here, apart from the measured load.
    indexBuild = Startup.orExit(() -> ViewSetup.prepare(new CouchDbClient(couchdb), plan, run.injector()));
    Console.say(indexBuild.describe());
    view.expectRows(indexBuild.totalRows());
    Console.say(plan.describe());
    cpuAtStart = ViewQuerySummary.cpuSeconds();
    run.loadStarts();
  }

  @Override
  public void after() {
    double cpuSeconds = ViewQuerySummary.cpuSeconds() - cpuAtStart;
    run.finish(List.of(couchdb.describe()), log -> {
      HttperfFigures figures = ViewQuerySummary.figures(view, cpuSeconds, log);
      figures.console().forEach(Console::say);
      return ViewQuerySummary.page(run.simulation(), plan, couchdb, indexBuild, figures, log,
          CouchHttp.loginWasRefused());
    });
  }
}
