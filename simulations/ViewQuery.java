import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.gatling.Populations;
import couchbench.results.RunOutput;
import couchbench.simulation.RunStart;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import couchbench.viewquery.IndexBuild;
import couchbench.viewquery.ViewQueryChains;
import couchbench.viewquery.ViewQueryFigures;
import couchbench.viewquery.ViewQueryPlan;
import couchbench.viewquery.ViewQuerySummary;
import couchbench.viewquery.ViewSetup;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * Seed 001: httperf against a CouchDB view, a constant rate of new connections, each sending its
 * calls and closing, -Drounds times one after the other; httperf's figures beside Gatling's report. See
 * docs/viewquery.md.
 */
public class ViewQuery extends Simulation {

  private final Settings settings = RunStart.settings();
  private final ViewQueryPlan plan = Startup.orExit(() -> ViewQueryPlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(ViewQuery.class, settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final ViewQueryChains view = new ViewQueryChains(plan, couchdb);
  private IndexBuild indexBuild;

  /** httperf's connection in a round: a user of its own, its calls one after the other, closed as the user ends. */
  private ScenarioBuilder connection(int round) {
    return scenario(plan.rounds().name(run.simulation(), round))
        .exec(view.connectionOpens(round))
        .repeat(plan.callsPerConn()).on(view.query(round))
        .exec(view.connectionCloses(round));
  }

  /** One round: an open model, as httperf's --rate: new connections arrive whatever the replies do. */
  private PopulationBuilder round(int round) {
    return connection(round).injectOpen(rampUsers(plan.conns()).during(plan.duration()));
  }

  {
    setUp(Populations.oneAfterAnother(plan.rounds().numbers().stream().map(this::round).toList()))
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
    run.loadStarts();
  }

  @Override
  public void after() {
    ViewQueryFigures figures = new ViewQueryFigures(couchdb.baseUrl(), indexBuild, CouchHttp.loginWasRefused(),
        view.figures());
    ViewQuerySummary.console(plan, figures).forEach(Console::say);
    run.finish(List.of(couchdb.describe()), ViewQuerySummary.of(plan), figures);
  }
}
