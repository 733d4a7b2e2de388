import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.bulkinsert.BulkInsertChains;
import couchbench.bulkinsert.BulkInsertPlan;
import couchbench.bulkinsert.BulkInsertStep;
import couchbench.bulkinsert.BulkInsertSummary;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.resources.CpuMeter;
import couchbench.resources.ServerProcess;
import couchbench.results.Progress;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 004: documents created per second through _bulk_docs, for batch sizes B and concurrent
 * clients T, next to one document per request (sequential and parallel). See docs/bulkinsert.md.
 */
public class BulkInsert extends CouchbenchSimulation {

  private final BulkInsertPlan plan = orExit(() -> BulkInsertPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final BulkInsertChains bulk = new BulkInsertChains(plan, couchdb, CpuMeter.of(ServerProcess.of(couchdb)));

  private final HttpProtocolBuilder couchProtocol = CouchHttp.protocol(couchdb);

  /**
   * A step: T users each send requests back to back, at least their share of the documents and for at least the
   * step's seconds; the last to end checks doc_count.
   */
  private PopulationBuilder step(BulkInsertStep step) {
    return scenario(plan.name(step))
        .exec(bulk.userStarts(step))
        .asLongAs(bulk.goesOn(step), BulkInsertChains.SENT).on(bulk.write(step))
        .doIf(bulk.userEndsLast(step)).then(bulk.docCountCheck(step))
        .injectOpen(atOnceUsers(step.threads()));
  }

  /** Unmeasured: each kind of request the steps send, through their checks, so that the JIT compiles it first. */
  private PopulationBuilder warmUp() {
    return scenario(BulkInsertChains.WARMUP)
        .exec(bulk.warmUpStarts())
        .exec(plan.warmup().stream().map(kind -> repeat(kind.requestsPerUser()).on(bulk.warmUpWrite(kind))).toList())
        .injectOpen(atOnceUsers(plan.warmupUsers()));
  }

  {
    List<PopulationBuilder> sweep = new ArrayList<>(plan.warmup().isEmpty() ? List.of() : List.of(warmUp()));
    // Every round's steps, round after round, after the one warm-up.
    plan.steps().forEach(step -> sweep.add(step(step)));
    setUp(oneAfterAnother(sweep))
        .protocols(couchProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected List<Progress.Source> progress() {
    return List.of(bulk.progress());
  }

  @Override
  protected void prepare() {
    bulk.createDatabases(client);
  }

  @Override
  protected List<String> couchDatabases() {
    return plan.steps().stream().map(BulkInsertStep::database).toList();
  }

  @Override
  protected Report<?> report() {
    return new Report<>(List.of(couchdb.describe()), BulkInsertSummary.of(plan),
        bulk.figures(CouchHttp.loginWasRefused()));
  }

  @Override
  protected void cleanUp() {
    bulk.dropDatabases(client);
  }
}
