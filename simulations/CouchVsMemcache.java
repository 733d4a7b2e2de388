import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.couchdb.CouchHttp;
import couchbench.results.RunOutput;
import couchbench.siege.VersusLoad;
import couchbench.siege.VersusPlan;
import couchbench.siege.VersusSummary;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/**
 * Seed 000 in one run: memcache and CouchDB writes, then reads of what was written, plain and as
 * whole records, with the servers' figures around each phase. See README.md.
 */
public class CouchVsMemcache extends Simulation {

  private final Settings settings = Startup.settings();
  private final VersusPlan plan = Startup.orExit(() -> VersusPlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(CouchVsMemcache.class, settings));
  private final MemcacheTarget memcacheTarget = Startup.orExit(() -> Targets.memcache(settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final VersusLoad load = new VersusLoad(plan, memcacheTarget, couchdb);

  {
    setUp(load.population())
        .protocols(CouchHttp.protocol(couchdb), plan.siege().memcacheProtocol(memcacheTarget.servers(), run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> load.prepare(run.injector()));
    run.loadStarts();
  }

  @Override
  public void after() {
    load.finish();
    run.finish(List.of(memcacheTarget.describe(), couchdb.describe()),
        log -> VersusSummary.page(load, memcacheTarget, couchdb, log));
  }
}
