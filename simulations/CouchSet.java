import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.gatling.Populations;
import couchbench.results.RunOutput;
import couchbench.siege.CouchWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.simulation.RunStart;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.util.List;

/** Seed 000's couchset.php under siege: documents under random ids; writes the key file. See README.md. */
public class CouchSet extends Simulation {

  private final Settings settings = RunStart.settings();
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(CouchSet.class, settings));
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings).withoutPipeline(run.simulation()));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final CouchDbClient client = new CouchDbClient(couchdb);
  private final Path keyFile = SiegePlan.keyFile(settings, "data/keys/couchdb.csv");
  private final KeyFile keys = KeyFile.at(plan.injector().ownFile(keyFile));

  // siege, round by round (-Drounds): each user sends back to back; a begun iteration is finished (false), as siege
  // finishes a transaction. Each: "couchdb set" (named for its round), PUT /<database>/<random id> of a text
  // document, 201 or 202 and ok, else it fails (409 its own way); each acknowledged id goes into the key file.
  private PopulationBuilder siege(int round) {
    return scenario(plan.rounds().name(run.simulation(), round))
        .during(plan.duration(), false).on(CouchWorkloads.set(plan, couchdb, keys, round))
        .injectOpen(atOnceUsers(plan.users()));
  }

  {
    setUp(Populations.oneAfterAnother(plan.rounds().numbers().stream().map(this::siege).toList()))
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> run.injector().setUpOnce("database " + plan.database(),
        () -> client.ensureDatabase(plan.database()), () -> client.databaseExists(plan.database())));
    Startup.orExit(() -> run.countOnServer("couchdb doc_count of " + plan.database(),
        () -> client.docCount(plan.database()), plan.requestNames(CouchWorkloads.SET)));
    run.loadStarts();
  }

  @Override
  public void after() {
    run.writeKeyFile(keys, keyFile, "ids");
    run.finish(List.of(couchdb.describe() + ", database " + plan.database()),
        SiegeSummary.of(run.simulation(), plan, CouchWorkloads.SET), SiegeSummary.Figures.WRITE);
  }
}
