import static couchbench.memcache.MemcacheDsl.memcache;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.data.KeyFile;
import couchbench.gatling.Populations;
import couchbench.resources.MemcacheResources;
import couchbench.results.RunOutput;
import couchbench.siege.MemcacheWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.simulation.RunStart;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.util.List;

/** Seed 000's memset.php under siege: random values under md5 keys; writes the key file. See README.md. */
public class MemSet extends Simulation {

  private final Settings settings = RunStart.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(MemSet.class, settings));
  private final MemcacheTarget target = Startup.orExit(() -> Targets.memcache(settings));
  private final Path keyFile = SiegePlan.keyFile(settings, "data/keys/memcache.csv");
  private final KeyFile keys = KeyFile.at(plan.injector().ownFile(keyFile));

  // siege, round by round (-Drounds): each user sends back to back; a begun iteration is finished (false), as siege
  // finishes a transaction. Each: "memcache set" (named for its round) of random text under a new md5 key, STORED or
  // it fails; each STORED key goes into the key file. With -Dpipeline=P, P such sets at once.
  private PopulationBuilder siege(int round) {
    return scenario(plan.rounds().name(run.simulation(), round))
        .during(plan.duration(), false).on(MemcacheWorkloads.setsAtOnce(plan, keys, round))
        .injectOpen(atOnceUsers(plan.users()));
  }

  private final PopulationBuilder warmUp = scenario(SiegePlan.WARMUP + run.simulation())
      .during(plan.warmup()).on(MemcacheWorkloads.warmUpSets(plan))
      .injectOpen(atOnceUsers(plan.users()));

  {
    setUp(Populations.oneAfterAnother(plan.warmUpThenRounds(warmUp, this::siege)))
        .protocols(memcache.servers(target.servers()).timings(run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> run.countOnServer("memcache cmd_set", () -> MemcacheResources.count(target, "cmd_set"),
        plan.requestNames(MemcacheWorkloads.SET, SiegePlan.WARMUP + MemcacheWorkloads.SET)));
    run.loadStarts();
  }

  @Override
  public void after() {
    run.writeKeyFile(keys, keyFile, "keys");
    run.finish(List.of(target.describe()), SiegeSummary.of(run.simulation(), plan, MemcacheWorkloads.SET),
        SiegeSummary.Figures.WRITE);
  }
}
