import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.data.KeyFile;
import couchbench.results.RunOutput;
import couchbench.siege.MemcacheWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.targets.Console;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Settings;
import couchbench.targets.Startup;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Optional;

/** Seed 000's memset.php under siege: random values under md5 keys; writes the key file. See README.md. */
public class MemSet extends Simulation {

  private final Settings settings = Startup.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings));
  private final MemcacheTarget target = Startup.orExit(() -> Targets.memcache(settings));
  private final KeyFile keys = KeyFile.at(SiegePlan.keyFile(settings, "data/keys/memcache.csv"));
  private final RunOutput run = RunOutput.of(MemSet.class, settings);

  {
    setUp(plan.memcacheUsers("MemSet", MemcacheWorkloads.warmUpSet(plan), MemcacheWorkloads.set(plan, keys)))
        .protocols(plan.memcacheProtocol(target.servers(), run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    run.loadStarts();
  }

  @Override
  public void after() {
    Console.say("key file: " + keys.size() + " acknowledged keys written to " + keys.write());
    String described = target.describe();
    run.finish(List.of(described), log -> SiegeSummary.page("MemSet", plan, described, Optional.empty(), log));
  }
}
