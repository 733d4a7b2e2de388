import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.bulkinsert.BulkInsertLoad;
import couchbench.bulkinsert.BulkInsertPlan;
import couchbench.bulkinsert.BulkInsertSummary;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.resources.CpuMeter;
import couchbench.resources.ServerProcess;
import couchbench.results.RunLog;
import couchbench.results.RunOutput;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * Seed 004: documents created per second through _bulk_docs, for batch sizes B and concurrent
 * clients T, next to one document per request (sequential and parallel). See README.md.
 */
public class BulkInsert extends Simulation {

  private final Settings settings = Startup.settings();
  private final BulkInsertPlan plan = Startup.orExit(() -> BulkInsertPlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(BulkInsert.class, settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final CpuMeter cpu = CpuMeter.of(ServerProcess.of(couchdb));
  private final BulkInsertLoad load = new BulkInsertLoad(plan, couchdb, cpu);

  {
    setUp(load.populations())
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> load.createDatabases(client));
    run.loadStarts();
  }

  @Override
  public void after() {
    run.finish(List.of(couchdb.describe()), log -> BulkInsertSummary.page(plan, couchdb, cpu.server(),
        load.tallies(), log.map(RunLog::requests)));
    load.dropDatabases(client);
  }
}
