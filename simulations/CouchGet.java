import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.global;

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
import java.util.List;
import java.util.Optional;

/** Seed 000's couchget.php under siege: random ids of CouchSet's key file, each read back intact. See docs/siege.md. */
public class CouchGet extends CouchbenchSimulation {

  private final SiegePlan plan = orExit(() -> SiegePlan.from(settings).forHttp(simulation()));
  private final KeyFile.Keys keys = orExit(() ->
      CouchRequests.readKeys(SiegePlan.keyFile(settings, "data/keys/couchdb.csv")));
  private final CouchTarget couchdb = couchdbTarget();
  private final CouchRequests couchRequests = new CouchRequests(couchdb, plan.database(), plan.valueSizes());

  private final HttpProtocolBuilder couchProtocol = CouchHttp.protocol(couchdb);

  // An id drawn at random from the key file, then "couchdb get": GET /<database>/<id>, 200 and the very text written
  // under that id, else it fails.
  private ChainBuilder get(int round) {
    return couchRequests.get(plan.rounds().names(round), KeyFile.randomKey(keys::keys));
  }

  private final Optional<StaircaseLoad> staircase = plan.newStaircase(simulation());

  // siege: each user sends back to back for the duration; with -Dtargets, each climbs the staircase instead.
  private PopulationBuilder siege(int round) {
    return plan.round(plan.rounds().name(simulation(), round), get(round), staircase);
  }

  {
    setUp(oneAfterAnother(plan.rounds().numbers().stream().map(this::siege).toList()))
        .protocols(couchProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected List<String> couchDatabases() {
    return List.of(plan.database());
  }

  @Override
  protected Report<?> report() {
    return new Report<>(List.of(couchdb.describe() + ", database " + plan.database()),
        SiegeSummary.of(simulation(), plan, CouchRequests.GET), SiegeSummary.Figures.reading(keys).climbed(staircase));
  }
}
