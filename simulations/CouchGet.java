import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

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
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/** Seed 000's couchget.php under siege: random ids of CouchSet's key file, each read back intact. See README.md. */
public class CouchGet extends Simulation {

  private final Settings settings = RunStart.settings();
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(CouchGet.class, settings));
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings).withoutPipeline(run.simulation()));
  private final KeyFile.Keys keys = Startup.orExit(() ->
      CouchWorkloads.readKeys(SiegePlan.keyFile(settings, "data/keys/couchdb.csv")));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));

  // An id drawn at random from the key file, then "couchdb get" (named for its round): GET /<database>/<id>, 200 and
  // the very text written under that id, else it fails.
  private ChainBuilder get(int round) {
    return exec(KeyFile.randomKey(keys::keys)).exec(CouchWorkloads.get(plan, couchdb, round));
  }

  // siege, round by round (-Drounds): each user sends back to back; a begun iteration is finished (false), as siege
  // finishes a transaction.
  private PopulationBuilder siege(int round) {
    return scenario(plan.rounds().name(run.simulation(), round))
        .during(plan.duration(), false).on(get(round))
        .injectOpen(atOnceUsers(plan.users()));
  }

  {
    setUp(Populations.oneAfterAnother(plan.rounds().numbers().stream().map(this::siege).toList()))
        .protocols(CouchHttp.protocol(couchdb))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    run.loadStarts();
  }

  @Override
  public void after() {
    run.finish(List.of(couchdb.describe() + ", database " + plan.database()),
        SiegeSummary.of(run.simulation(), plan, CouchWorkloads.GET), SiegeSummary.Figures.reading(keys));
  }
}
