import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.curve.StaircaseLoad;
import couchbench.data.KeyFile;
import couchbench.requests.CouchRequests;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Seed 000's couchset.php under siege: documents under random ids; writes the key file. See docs/siege.md. */
public class CouchSet extends CouchbenchSimulation {

  private final SiegePlan plan = orExit(() -> SiegePlan.from(settings).forHttp(simulation()));
  private final CouchTarget couchdb = couchdbTarget();
  private final Path keyFile = SiegePlan.keyFile(settings, "data/keys/couchdb.csv");
  private final KeyFile keys = KeyFile.at(plan.injector().ownFile(keyFile));
  private final CouchRequests couchRequests = new CouchRequests(couchdb, plan.database(), plan.valueSizes());

  private final HttpProtocolBuilder couchProtocol = CouchHttp.protocol(couchdb);

  // "couchdb set": PUT /<database>/<random id> of a text document, 201 or 202 and ok, else it fails (409 its own
  // way); each acknowledged id goes into the key file.
  private ChainBuilder set(int round) {
    return couchRequests.set(plan.rounds().names(round), plan::newDocId, keys::record);
  }

  private final Optional<StaircaseLoad> staircase = plan.newStaircase(simulation());

  // siege: each user sends back to back for the duration; with -Dtargets, each climbs the staircase instead.
  private PopulationBuilder siege(int round) {
    return plan.round(plan.rounds().name(simulation(), round), set(round), staircase);
  }

  {
    setUp(oneAfterAnother(plan.rounds().numbers().stream().map(this::siege).toList()))
        .protocols(couchProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    CouchDbClient client = new CouchDbClient(couchdb);
    run.injector().setUpOnce("database " + plan.database(),
        () -> client.ensureDatabase(plan.database()), () -> client.databaseExists(plan.database()));
    run.countOnServer("couchdb doc_count of " + plan.database(), () -> client.docCount(plan.database()),
        plan.requestNames(CouchRequests.SET));
  }

  @Override
  protected List<String> couchDatabases() {
    return List.of(plan.database());
  }

  @Override
  protected Report<?> report() {
    run.writeKeyFile(keys, keyFile, "ids");
    return new Report<>(List.of(couchdb.describe() + ", database " + plan.database()),
        SiegeSummary.of(simulation(), plan, CouchRequests.SET), SiegeSummary.Figures.WRITE.climbed(staircase));
  }
}
