import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.data.KeyFile;
import couchbench.resources.MemcacheResources;
import couchbench.results.RunOutput;
import couchbench.siege.MemcacheWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Seed 000's memset.php under siege: random values under md5 keys; writes the key file. See README.md. */
public class MemSet extends Simulation {

  private final Settings settings = Startup.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(MemSet.class, settings));
  private final MemcacheTarget target = Startup.orExit(() -> Targets.memcache(settings));
  private final Path keyFile = SiegePlan.keyFile(settings, "data/keys/memcache.csv");
  private final KeyFile keys = KeyFile.at(plan.injector().ownFile(keyFile));

  {
    setUp(plan.memcacheUsers("MemSet", MemcacheWorkloads.warmUpSet(plan), MemcacheWorkloads.set(plan, keys)))
        .protocols(plan.memcacheProtocol(target.servers(), run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> run.countOnServer("memcache cmd_set", () -> MemcacheResources.count(target, "cmd_set"),
        MemcacheWorkloads.SET, SiegePlan.WARMUP + MemcacheWorkloads.SET));
    run.loadStarts();
  }

  @Override
  public void after() {
    run.writeKeyFile(keys, keyFile, "keys");
    String described = target.describe();
    run.finish(List.of(described), log -> SiegeSummary.page("MemSet", plan, described, Optional.empty(), log));
  }
}
