import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.sync.SyncLoad;
import couchbench.sync.SyncPlan;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients syncing as PouchDB does: each with its own documents and checkpoints, pushing (_revs_diff, _bulk_docs with
 * new_edits=false) and pulling (_changes, _bulk_get) every -DsyncInterval, editing between syncs, while documents are
 * edited on the server too; at the end every client is compared with the server. See docs/replication.md.
 */
public class Sync extends CouchbenchSimulation {

  private final SyncPlan plan = orExit(() -> SyncPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final SyncLoad load = runs(new SyncLoad(plan, couchdb));

  /** The clients arrive over one sync interval (at least a second), as devices do, not all in the same millisecond. */
  private List<PopulationBuilder> clientsAndEditor() {
    List<PopulationBuilder> everyone = new ArrayList<>();
    everyone.add(scenario("clients").exec(load.client()).injectOpen(rampUsers(plan.clients())
        .during(plan.syncInterval().compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1)
            : plan.syncInterval())));
    if (plan.serverEdits() > 0) {
      everyone.add(scenario("server editor").exec(load.editor()).injectOpen(atOnceUsers(1)));
    }
    return everyone;
  }

  {
    setUp(clientsAndEditor())
        .protocols(CouchHttp.protocol(couchdb))
        // A request refused, or a reply that is not what the protocol says, fails the run.
        .assertions(global().failedRequests().count().is(0L));
  }
}
