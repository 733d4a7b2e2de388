import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.results.RunOutput;
import couchbench.siege.CouchWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Optional;

/** Seed 000's couchget.php under siege: random ids of CouchSet's key file, each read back intact. See README.md. */
public class CouchGet extends Simulation {

  private final Settings settings = Startup.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings).withoutPipeline("CouchGet"));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(CouchGet.class, settings));
  private final KeyFile.Keys keys = Startup.orExit(() ->
      CouchWorkloads.readKeys(SiegePlan.keyFile(settings, "data/keys/couchdb.csv")));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));

  {
    setUp(plan.users("CouchGet", CouchWorkloads.get(plan, couchdb, keys::keys)))
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    run.loadStarts();
  }

  @Override
  public void after() {
    String described = couchdb.describe() + ", database " + plan.database();
    run.finish(List.of(described), log -> SiegeSummary.page("CouchGet", plan, described, Optional.of(keys), log));
  }
}
