import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.siege.CouchWorkloads;
import couchbench.results.RunOutput;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.targets.Console;
import couchbench.targets.CouchTarget;
import couchbench.targets.Settings;
import couchbench.targets.Startup;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Optional;

/** Seed 000's couchset.php under siege: documents under random ids; writes the key file. See README.md. */
public class CouchSet extends Simulation {

  private final Settings settings = Startup.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings).withoutPipeline("CouchSet"));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final KeyFile keys = KeyFile.at(SiegePlan.keyFile(settings, "data/keys/couchdb.csv"));
  private final RunOutput run = RunOutput.of(CouchSet.class, settings);

  {
    setUp(plan.users("CouchSet", CouchWorkloads.set(plan, couchdb, keys)))
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> new CouchDbClient(couchdb).ensureDatabase(plan.database()));
    run.loadStarts();
  }

  @Override
  public void after() {
    Console.say("key file: " + keys.size() + " acknowledged ids written to " + keys.write());
    String described = couchdb.describe() + ", database " + plan.database();
    run.finish(List.of(described), log -> SiegeSummary.page("CouchSet", plan, described, Optional.empty(), log));
  }
}
