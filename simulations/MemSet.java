import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.global;

import couchbench.curve.StaircaseLoad;
import couchbench.data.KeyFile;
import couchbench.memcache.MemcacheProtocolBuilder;
import couchbench.requests.MemcacheDialect;
import couchbench.requests.MemcacheRequests;
import couchbench.resources.MemcacheResources;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.MemcacheTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Seed 000's memset.php under siege: random values under new md5 keys; writes the key file. See docs/siege.md. */
public class MemSet extends CouchbenchSimulation {

  private final SiegePlan plan = orExit(() -> SiegePlan.from(settings));
  private final MemcacheTarget memcached = memcacheTarget();
  private final MemcacheDialect protocol = orExit(() -> MemcacheDialect.spokenBy(settings, memcached));
  private final Path keyFile = SiegePlan.keyFile(settings, "data/keys/memcache.csv");
  private final KeyFile keys = KeyFile.at(plan.injector().ownFile(keyFile));
  private final MemcacheRequests memcacheRequests = new MemcacheRequests(plan.valueSizes(), protocol)
      .expiring(plan.expiry());

  private final MemcacheProtocolBuilder memcacheProtocol = memcacheProtocol(memcached)
      .usersPerConnection(plan.usersPerConnection()).reconnectEvery(plan.reconnectEvery());

  // "memcache set" of random text under a new md5 key, STORED or it fails; each STORED key goes into the key file.
  // -Dpipeline of them at once. The warm-up's sets go to one key, without expiry, in no key file.
  private ChainBuilder set(UnaryOperator<String> names) {
    return memcacheRequests.set(names, plan::newMd5Key, keys::record, plan.pipeline());
  }

  private final ChainBuilder warmUpSet = memcacheRequests.warmUpSet(SiegePlan.warmUpNames(), plan.pipeline());

  private final Optional<StaircaseLoad> staircase = plan.newStaircase(simulation());

  // siege: each user sends back to back for the duration; with -Dtargets, each climbs the staircase instead.
  private PopulationBuilder siege(int round) {
    return plan.round(plan.rounds().name(simulation(), round), set(plan.rounds().names(round)), staircase);
  }

  private final PopulationBuilder warmUp = plan.warmUp(simulation(), warmUpSet);

  {
    setUp(oneAfterAnother(plan.warmUpThenRounds(warmUp, this::siege)))
        .protocols(memcacheProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    MemcacheResources.checkLargestValue(memcached, plan.valueSizes());
    if (plan.expiry().expires()) {
      MemcacheResources.checkExpiryHonoured(memcached);
    }
    run.countOnServer("memcache cmd_set", () -> MemcacheResources.count(memcached, "cmd_set"),
        plan.requestNames(MemcacheRequests.SET, SiegePlan.WARMUP + MemcacheRequests.SET));
  }

  @Override
  protected Report<?> report() {
    run.writeKeyFile(keys, keyFile, "keys");
    return new Report<>(List.of(protocol.describe(memcached)), SiegeSummary.of(simulation(), plan, MemcacheRequests.SET),
        SiegeSummary.Figures.WRITE.climbed(staircase));
  }
}
