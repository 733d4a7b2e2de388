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
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Seed 000's memget.php under siege: random keys of MemSet's key file, each must be found. See docs/siege.md. */
public class MemGet extends CouchbenchSimulation {

  private final SiegePlan plan = orExit(() -> SiegePlan.from(settings).forGets());
  private final KeyFile.Keys keys = orExit(() ->
      MemcacheRequests.readKeys(SiegePlan.keyFile(settings, "data/keys/memcache.csv")));
  private final MemcacheTarget memcached = memcacheTarget();
  private final MemcacheDialect protocol = orExit(() -> MemcacheDialect.spokenBy(settings, memcached));
  private final MemcacheRequests memcacheRequests = new MemcacheRequests(plan.valueSizes(), protocol)
      .reading(keys);

  private final MemcacheProtocolBuilder memcacheProtocol = memcacheProtocol(memcached)
      .usersPerConnection(plan.usersPerConnection()).reconnectEvery(plan.reconnectEvery());

  // A key drawn at random from the key file, then "memcache get" of it: a miss fails with NOT_FOUND. -Dpipeline of
  // them at once, each of its own key.
  private ChainBuilder get(UnaryOperator<String> names) {
    return memcacheRequests.get(names, KeyFile.randomKey(keys::keys), plan.pipeline());
  }

  private final Optional<StaircaseLoad> staircase = plan.newStaircase(simulation());

  // siege: each user sends back to back for the duration; with -Dtargets, each climbs the staircase instead.
  private PopulationBuilder siege(int round) {
    return plan.round(plan.rounds().name(simulation(), round), get(plan.rounds().names(round)), staircase);
  }

  private final PopulationBuilder warmUp = plan.warmUp(simulation(), get(SiegePlan.warmUpNames()));

  {
    setUp(oneAfterAnother(plan.warmUpThenRounds(warmUp, this::siege)))
        .protocols(memcacheProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  // With keys that expire (MemSet's -Dexpiry), memcached's hits and misses against the gets named after them; a get
  // near its key's expiry time may be either, so its outcomes are taken off.
  @Override
  protected void prepare() {
    if (memcacheRequests.readsExpiringKeys()) {
      run.countOnServer("memcache get_hits, less the near-expiry gets' hits",
          () -> MemcacheResources.count(memcached, "get_hits") - memcacheRequests.nearExpiry(true),
          plan.requestNames(MemcacheRequests.GET, SiegePlan.WARMUP + MemcacheRequests.GET));
      run.countOnServer("memcache get_misses, less the near-expiry gets' misses",
          () -> MemcacheResources.count(memcached, "get_misses") - memcacheRequests.nearExpiry(false),
          plan.requestNames(MemcacheRequests.GET_EXPIRED, SiegePlan.WARMUP + MemcacheRequests.GET_EXPIRED));
    }
  }

  @Override
  protected Report<?> report() {
    return new Report<>(List.of(protocol.describe(memcached)),
        SiegeSummary.of(simulation(), plan, MemcacheRequests.getNames()),
        SiegeSummary.Figures.reading(keys).climbed(staircase));
  }
}
