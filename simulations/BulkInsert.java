import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.bulkinsert.BulkInsertLoad;
import couchbench.bulkinsert.BulkInsertPlan;
import couchbench.bulkinsert.BulkInsertSummary;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.report.GatlingLog;
import couchbench.report.Summaries;
import couchbench.resources.CouchResources;
import couchbench.resources.CpuMeter;
import couchbench.targets.CouchTarget;
import couchbench.targets.Settings;
import couchbench.targets.Startup;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.time.Instant;

/**
 * Seed 004: documents created per second through _bulk_docs, for batch sizes B and concurrent
 * clients T, next to one document per request (sequential and parallel). See README.md.
 */
public class BulkInsert extends Simulation {

  private final Settings settings = Startup.settings();
  private final BulkInsertPlan plan = Startup.orExit(() -> BulkInsertPlan.from(settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final CpuMeter cpu = CpuMeter.of(CouchResources.server(couchdb));
  private final BulkInsertLoad load = new BulkInsertLoad(plan, couchdb, cpu);
  private Instant loadStart;

  {
    setUp(load.populations())
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> load.createDatabases(client));
    loadStart = Instant.now();
  }

  @Override
  public void after() {
    Summaries.write("BulkInsert", loadStart, BulkInsertSummary.page(plan, couchdb, cpu.server(), load.tallies(),
        GatlingLog.requests("BulkInsert", loadStart)));
    load.dropDatabases(client);
  }
}
