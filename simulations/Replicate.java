import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.replication.ReplicatePlan;
import couchbench.replication.ReplicateSummary;
import couchbench.replication.ReplicationLoad;
import couchbench.results.Progress;
import couchbench.results.SeriesKind;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import java.util.List;

/**
 * Server-to-server replication: -Djobs one-shot replications at once (POST /_replicate), timed to their reply; or
 * continuous ones (_replicator documents) while writers write into their sources at a rate, each write timed to its
 * arrival on the target. After the load, every target is compared with its source, id by id and revision by revision.
 * See docs/replication.md.
 */
public class Replicate extends CouchbenchSimulation {

  private final ReplicatePlan plan = orExit(() -> ReplicatePlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final ReplicationLoad load = new ReplicationLoad(plan, couchdb);

  /** Each replication started at once; each target watched, each source written, once its first copy is there. */
  private List<PopulationBuilder> continuous() {
    return List.of(
        scenario("replications").exec(load.continuous()).injectOpen(atOnceUsers(plan.jobs())),
        scenario("targets").exec(load.watcher()).injectOpen(atOnceUsers(plan.jobs())),
        scenario("writers").exec(load.writer()).injectOpen(atOnceUsers(plan.jobs())));
  }

  {
    setUp(plan.continuous() ? continuous()
        : List.of(scenario("replications").exec(load.oneShot()).injectOpen(atOnceUsers(plan.jobs()))))
        .protocols(CouchHttp.protocol(couchdb))
        // A replication refused, a write refused, or a target that never caught up fails the run.
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    load.prepare();
    run.countApart(SeriesKind.LAG, List.of(ReplicationLoad.REPLICATED_WRITE));
    run.countApart(SeriesKind.VERDICT, List.of(ReplicationLoad.TARGET_LEVEL));
    Console.say("load: " + plan.describe());
  }

  @Override
  protected List<Progress.Source> progress() {
    return List.of(load.progress());
  }

  @Override
  protected Report<?> report() {
    return new Report<>(List.of(couchdb.describe()), new ReplicateSummary(), load.figures());
  }

  @Override
  protected void cleanUp() {
    load.cleanUp();
  }
}
