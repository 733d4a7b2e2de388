import static couchbench.memcache.MemcacheDsl.memcache;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.data.KeyFile;
import couchbench.gatling.Populations;
import couchbench.results.RunOutput;
import couchbench.siege.MemcacheWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.simulation.RunStart;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.List;

/** Seed 000's memget.php under siege: random keys of MemSet's key file, each must be found. See README.md. */
public class MemGet extends Simulation {

  private final Settings settings = RunStart.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(MemGet.class, settings));
  private final KeyFile.Keys keys = Startup.orExit(() ->
      MemcacheWorkloads.readKeys(SiegePlan.keyFile(settings, "data/keys/memcache.csv")));
  private final MemcacheTarget target = Startup.orExit(() -> Targets.memcache(settings));

  // A key drawn at random from the key file, then "memcache get" of it (named for its round): a miss fails with
  // NOT_FOUND. With -Dpipeline=P, P such gets at once, each of its own key.
  private ChainBuilder get(int round) {
    return MemcacheWorkloads.getsAtOnce(plan, keys::keys, round);
  }

  private final ChainBuilder warmUpGet = MemcacheWorkloads.warmUpGets(plan, keys::keys);

  // siege, round by round (-Drounds): each user sends back to back; a begun iteration is finished (false), as siege
  // finishes a transaction.
  private PopulationBuilder siege(int round) {
    return scenario(plan.rounds().name(run.simulation(), round))
        .during(plan.duration(), false).on(get(round))
        .injectOpen(atOnceUsers(plan.users()));
  }

  private final PopulationBuilder warmUp = scenario(SiegePlan.WARMUP + run.simulation())
      .during(plan.warmup()).on(warmUpGet)
      .injectOpen(atOnceUsers(plan.users()));

  {
    setUp(Populations.oneAfterAnother(plan.warmUpThenRounds(warmUp, this::siege)))
        .protocols(memcache.servers(target.servers()).timings(run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    run.loadStarts();
  }

  @Override
  public void after() {
    run.finish(List.of(target.describe()), SiegeSummary.of(run.simulation(), plan, MemcacheWorkloads.GET),
        SiegeSummary.Figures.reading(keys));
  }
}
