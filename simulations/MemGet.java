import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.data.KeyFile;
import couchbench.results.RunOutput;
import couchbench.siege.MemcacheWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.Simulation;
import java.util.List;
import java.util.Optional;

/** Seed 000's memget.php under siege: random keys of MemSet's key file, each must be found. See README.md. */
public class MemGet extends Simulation {

  private final Settings settings = Startup.settings();
  private final SiegePlan plan = Startup.orExit(() -> SiegePlan.from(settings));
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(MemGet.class, settings));
  private final KeyFile.Keys keys = Startup.orExit(() ->
      MemcacheWorkloads.readKeys(SiegePlan.keyFile(settings, "data/keys/memcache.csv")));
  private final MemcacheTarget target = Startup.orExit(() -> Targets.memcache(settings));

  {
    setUp(plan.memcacheUsers("MemGet", MemcacheWorkloads.warmUpGet(keys::keys), MemcacheWorkloads.get(keys::keys)))
        .protocols(plan.memcacheProtocol(target.servers(), run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    run.loadStarts();
  }

  @Override
  public void after() {
    String described = target.describe();
    run.finish(List.of(described), log -> SiegeSummary.page("MemGet", plan, described, Optional.of(keys), log));
  }
}
