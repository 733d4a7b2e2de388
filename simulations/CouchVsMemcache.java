import static couchbench.data.KeyFile.randomKey;
import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.data.Md5Keys;
import couchbench.memcache.MemcacheProtocolBuilder;
import couchbench.requests.CouchRequests;
import couchbench.requests.MemcacheDialect;
import couchbench.requests.MemcacheRequests;
import couchbench.siege.SiegePlan;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.versus.VersusPhases;
import couchbench.versus.VersusPlan;
import couchbench.versus.VersusSummary;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Seed 000 in one run: memcache and CouchDB writes, then reads of what was written, plain and as whole records of F
 * fields, with the servers' figures around each phase. The steps run one after the other, so each system has the
 * machine to itself; with -Drounds=R, round after round. See docs/couch-vs-memcache.md.
 */
public class CouchVsMemcache extends CouchbenchSimulation {

  private final VersusPlan plan = orExit(() -> VersusPlan.from(settings));
  private final SiegePlan siege = plan.siege();
  private final int fields = plan.fields();
  private final MemcacheTarget memcached = memcacheTarget();
  private final MemcacheDialect protocol = orExit(() -> MemcacheDialect.spokenBy(settings, memcached));
  private final CouchTarget couchdb = couchdbTarget();
  private final VersusPhases phases = new VersusPhases(plan, memcached, couchdb);
  private final MemcacheRequests mem = new MemcacheRequests(siege.valueSizes(), protocol);
  private final CouchRequests couch = new CouchRequests(couchdb, siege.database(), siege.valueSizes());

  private final HttpProtocolBuilder couchProtocol = CouchHttp.protocol(couchdb);
  private final MemcacheProtocolBuilder memcacheProtocol = memcacheProtocol(memcached)
      .usersPerConnection(siege.usersPerConnection());

  // Every request path of the steps once, under names of its own ("warm-up ..."), on one new key per user.
  private final ChainBuilder warmUp = exec(session -> session.set(KeyFile.HEADER, "warm-up-" + Md5Keys.random()))
      .exec(mem.setAndGet(SiegePlan.warmUpNames()), couch.putAndGet(SiegePlan.warmUpNames()));

  // A step: siege's users sending back to back; a begun iteration (a whole record) is finished, as siege does.
  private PopulationBuilder step(String name, ChainBuilder iteration) {
    return scenario(name).during(siege.duration(), false).on(iteration).injectOpen(atOnceUsers(siege.users()));
  }

  // A round: the servers' figures; the writes (random text under new keys, records of F fields); the key files handed
  // over and the figures; the reads of keys drawn at random from what the writes acknowledged, each checked.
  private List<PopulationBuilder> round(int round) {
    UnaryOperator<String> names = siege.rounds().names(round);
    VersusPhases.Round keys = phases.round(round);
    List<PopulationBuilder> steps = new ArrayList<>(List.of(phases.beforeWrites(round),
        step(names.apply(MemcacheRequests.SET), mem.set(names, siege::newMd5Key, keys.memcacheKeys()::record,
            siege.pipeline())),
        step(names.apply(CouchRequests.SET), couch.set(names, siege::newDocId, keys.couchdbKeys()::record))));
    if (plan.records()) {
      steps.add(step(names.apply(MemcacheRequests.RECORD_WRITE),
          mem.recordWrite(names, siege::newMd5Key, keys.memcacheFields())));
      steps.add(step(names.apply(CouchRequests.RECORD_WRITE),
          couch.recordWrite(names, fields, siege::newDocId, keys.couchdbRecords()::record)));
    }
    steps.addAll(List.of(phases.betweenPhases(round),
        step(names.apply(MemcacheRequests.GET),
            mem.get(names, randomKey(keys.memcacheKeys()::keys), siege.pipeline())),
        step(names.apply(CouchRequests.GET), couch.get(names, randomKey(keys.couchdbKeys()::keys)))));
    if (plan.records()) {
      steps.add(step(names.apply(MemcacheRequests.RECORD_READ),
          mem.recordRead(names, randomKey(keys.memcacheRecords()::keys), fields)));
      steps.add(step(names.apply(MemcacheRequests.RECORD_MULTI_READ),
          mem.recordMultiRead(names, randomKey(keys.memcacheRecords()::keys), fields)));
      steps.add(step(names.apply(CouchRequests.RECORD_READ),
          couch.recordRead(names, randomKey(keys.couchdbRecords()::keys), fields)));
    }
    return steps;
  }

  {
    List<PopulationBuilder> steps = new ArrayList<>(siege.warmup().isZero() ? List.of()
        : List.of(scenario("warm-up").during(siege.warmup()).on(warmUp).injectOpen(atOnceUsers(siege.users()))));
    siege.rounds().numbers().forEach(round -> steps.addAll(round(round)));
    setUp(oneAfterAnother(steps))
        .protocols(couchProtocol, memcacheProtocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  protected void prepare() {
    phases.prepare(run.injector());
  }

  @Override
  protected List<String> couchDatabases() {
    return List.of(siege.database());
  }

  @Override
  protected Report<?> report() {
    return new Report<>(List.of(protocol.describe(memcached), couchdb.describe()), VersusSummary.of(simulation(), plan),
        phases.finish());
  }
}
