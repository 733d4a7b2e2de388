import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.viewquery.IndexBuild;
import couchbench.viewquery.ViewQueryChains;
import couchbench.viewquery.ViewQueryFigures;
import couchbench.viewquery.ViewQueryPlan;
import couchbench.viewquery.ViewQuerySummary;
import couchbench.viewquery.ViewSetup;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.util.List;

/**
 * Seed 001: httperf against a CouchDB view, a constant rate of new connections, each sending its
 * calls and closing, -Drounds times one after the other; httperf's figures beside Gatling's report. See
 * docs/viewquery.md.
 */
public class ViewQuery extends CouchbenchSimulation {

  private final ViewQueryPlan plan = orExit(() -> ViewQueryPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final ViewQueryChains view = new ViewQueryChains(plan, couchdb);
  private IndexBuild indexBuild;

  private final HttpProtocolBuilder couchProtocol = CouchHttp.protocol(couchdb);

  /** httperf's connection in a round: a user of its own, its calls one after the other, closed as the user ends. */
  private ScenarioBuilder connection(int round) {
    return scenario(plan.rounds().name(simulation(), round))
        .exec(view.connectionOpens(round))
        .repeat(plan.callsPerConn()).on(view.query(round))
        .exec(view.connectionCloses(round));
  }

  /** One round: an open model, as httperf's --rate: new connections arrive whatever the replies do. */
  private PopulationBuilder round(int round) {
    return connection(round).injectOpen(rampUsers(plan.conns()).during(plan.duration()));
  }

  {
    setUp(oneAfterAnother(plan.rounds().numbers().stream().map(this::round).toList()))
        .protocols(couchProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    // The first query builds the view's index: timed here, apart from the measured load.
    indexBuild = ViewSetup.prepare(new CouchDbClient(couchdb), plan, run.injector());
    Console.say(indexBuild.describe());
    view.expectRows(indexBuild.totalRows());
    Console.say(plan.describe());
  }

  @Override
  protected List<String> couchDatabases() {
    return List.of(plan.database());
  }

  @Override
  protected Report<?> report() {
    ViewQueryFigures figures = new ViewQueryFigures(couchdb.baseUrl(), indexBuild, CouchHttp.loginWasRefused(),
        view.figures());
    ViewQuerySummary.console(plan, figures).forEach(Console::say);
    return new Report<>(List.of(couchdb.describe()), ViewQuerySummary.of(plan), figures);
  }
}
