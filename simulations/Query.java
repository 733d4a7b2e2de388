import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.query.QueryLoad;
import couchbench.query.QueryPlan;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;

/**
 * Mango and views over the same orders: each query class asked with no index, with a JSON index (partial, covering)
 * and of the equivalent view, in a global and a partitioned database; every index's build timed; every reply checked
 * against the answer known from the data. See docs/query.md.
 */
public class Query extends CouchbenchSimulation {

  private final QueryPlan plan = orExit(() -> QueryPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final QueryLoad load = runs(new QueryLoad(plan, couchdb));

  {
    // A closed model: each user asks its next query once the last is answered, as an application's workers do.
    setUp(scenario("queries").exec(load.user()).injectOpen(atOnceUsers(plan.users())))
        .protocols(CouchHttp.protocol(couchdb))
        // A query answered wrong (or refused), or a write refused, fails the run.
        .assertions(global().failedRequests().count().is(0L));
  }
}
