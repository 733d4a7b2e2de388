import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.changes.ChangesLoad;
import couchbench.changes.ChangesPlan;
import couchbench.changes.ChangesSummary;
import couchbench.couchdb.CouchHttp;
import couchbench.feed.ChangesFeed;
import couchbench.results.Progress;
import couchbench.results.SeriesKind;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * How long until a write is seen: writers write documents at a rate while listeners follow _changes (continuous,
 * longpoll, eventsource, normal), each write timed from its acknowledgement to every listener that reads it, and every
 * listener's deliveries checked against the writes acknowledged; or, with -Dcatchup, readers reading a filled database's
 * changes from 0 in pages. See docs/changes.md.
 */
public class Changes extends CouchbenchSimulation {

  private final ChangesPlan plan = orExit(() -> ChangesPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final ChangesLoad load = new ChangesLoad(plan, couchdb);

  /** The writers start once every listener's feed is open, and write their documents at the rate's pace. */
  private PopulationBuilder writers() {
    return scenario("writers").exec(load.writer(0)).injectOpen(atOnceUsers(plan.writers()));
  }

  /** Each feed's listeners: each follows its database until it saw every write it should, or -Dquiet has passed. */
  private List<PopulationBuilder> listenersAndWriters() {
    List<PopulationBuilder> everyone = new ArrayList<>();
    plan.listeners().forEach((kind, count) -> everyone.add(scenario("listeners " + kind.value())
        .exec(load.listener(kind))
        .injectOpen(atOnceUsers(count))));
    everyone.add(writers());
    return everyone;
  }

  /** -Dcatchup: the readers, each reading the filled database's _changes from 0, page after page. */
  private PopulationBuilder catchUpReaders() {
    return scenario("catch-up readers").exec(load.catchUpReader()).injectOpen(atOnceUsers(plan.readers()));
  }

  /** -Dvisibility=nodes: through each node, its writers, and readers finding the other nodes' writes. */
  private List<PopulationBuilder> throughEachNode() {
    List<PopulationBuilder> nodes = new ArrayList<>();
    for (int node = 0; node < couchdb.nodes().urls().size(); node++) {
      HttpProtocolBuilder through = CouchHttp.protocol(load.throughNode(node));
      nodes.add(scenario("writers through node " + (node + 1)).exec(load.writer(node))
          .injectOpen(atOnceUsers(plan.writersThrough(node, couchdb.nodes().urls().size()))).protocols(through));
      nodes.add(scenario("readers through node " + (node + 1)).exec(load.visibilityReader(node))
          .injectOpen(atOnceUsers(plan.readers())).protocols(through));
    }
    return nodes;
  }

  {
    setUp(plan.catchesUp() ? List.of(catchUpReaders()) : plan.visibility() ? throughEachNode() : listenersAndWriters())
        .protocols(CouchHttp.protocol(couchdb))
        // A write or a catch-up page that fails, or a listener that missed a write it should have seen, fails the run.
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    load.prepare();
    run.countApart(SeriesKind.NOTIFICATION, plan.listeners().keySet().stream().map(ChangesLoad::notificationOf)
        .toList());
    run.countApart(SeriesKind.VERDICT, plan.listeners().keySet().stream().map(ChangesFeed::deliveryOf).toList());
    Console.say("load: " + plan.describe());
  }

  @Override
  protected List<Progress.Source> progress() {
    return List.of(load.progress());
  }

  @Override
  protected List<String> couchDatabases() {
    return plan.databaseNames();
  }

  @Override
  protected Report<?> report() {
    return new Report<>(List.of(couchdb.describe()), new ChangesSummary(), load.figures());
  }
}
