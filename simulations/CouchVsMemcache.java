import static couchbench.memcache.MemcacheDsl.memcache;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.data.KeyFile;
import couchbench.data.Md5Keys;
import couchbench.gatling.Populations;
import couchbench.results.RunOutput;
import couchbench.siege.CouchWorkloads;
import couchbench.siege.KeyHandoff;
import couchbench.siege.MemcacheWorkloads;
import couchbench.siege.SiegePlan;
import couchbench.siege.VersusPhases;
import couchbench.siege.VersusPlan;
import couchbench.siege.VersusSummary;
import couchbench.simulation.RunStart;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.Targets;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 in one run: memcache and CouchDB writes, then reads of what was written, plain and as whole records, with
 * the servers' figures around each phase. The steps run one after the other (andThen), so each system has the
 * machine to itself; with -Drounds=R, round after round. See README.md.
 */
public class CouchVsMemcache extends Simulation {

  private final Settings settings = RunStart.settings();
  private final VersusPlan plan = Startup.orExit(() -> VersusPlan.from(settings));
  private final SiegePlan siege = plan.siege();
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(CouchVsMemcache.class, settings));
  private final MemcacheTarget memcacheTarget = Startup.orExit(() -> Targets.memcache(settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final VersusPhases phases = new VersusPhases(plan, memcacheTarget, couchdb);

  // Every step: siege's users sending back to back; a begun iteration (a whole record) is finished, as siege does.
  private PopulationBuilder step(String name, int round, int users, ChainBuilder iteration) {
    return scenario(siege.rounds().name(name, round)).during(siege.duration(), false).on(iteration)
        .injectOpen(atOnceUsers(users));
  }

  // A read step draws its keys from a write step's key file; when that came out empty, its users end at once.
  private PopulationBuilder readStep(String name, int round, int users, KeyHandoff written, ChainBuilder read) {
    return scenario(siege.rounds().name(name, round)).doIf(session -> written.ready()).then(during(siege.duration(),
        false).on(exec(KeyFile.randomKey(written::keys)).exec(read))).injectOpen(atOnceUsers(users));
  }

  {
    int memcacheUsers = siege.virtualUsers();
    int couchUsers = siege.users();
    List<PopulationBuilder> steps = new ArrayList<>();
    if (!siege.warmup().isZero()) { // every request path of the steps, under names of their own ("warm-up ...")
      steps.add(scenario("warm-up").during(siege.warmup()).on(
          exec(session -> session.set(KeyFile.HEADER, "warm-up-" + Md5Keys.random())),
          MemcacheWorkloads.warmUpSetAndGet(), CouchWorkloads.warmUpPutAndGet(siege, couchdb))
          .injectOpen(atOnceUsers(couchUsers)));
    }
    for (int round : siege.rounds().numbers()) { // -Drounds: each round whole, its writes, then its reads of them
      VersusPhases.Round keys = phases.round(round);
      steps.add(phases.beforeWrites(round));
      steps.add(step(MemcacheWorkloads.SET, round, memcacheUsers,
          MemcacheWorkloads.set(siege, keys.memcacheKeys().written(), round)));
      steps.add(step(CouchWorkloads.SET, round, couchUsers,
          CouchWorkloads.set(siege, couchdb, keys.couchdbKeys().written(), round)));
      if (plan.records()) {
        steps.add(step(MemcacheWorkloads.RECORD_WRITE, round, memcacheUsers,
            MemcacheWorkloads.recordWrite(siege, keys.memcacheFields(), round)));
        steps.add(step(CouchWorkloads.RECORD_WRITE, round, couchUsers,
            CouchWorkloads.recordWrite(siege, plan.fields(), couchdb, keys.couchdbRecords().written(), round)));
      }
      steps.add(phases.betweenPhases(round));
      steps.add(readStep(MemcacheWorkloads.GET, round, memcacheUsers, keys.memcacheKeys(),
          MemcacheWorkloads.get(siege, round)));
      steps.add(readStep(CouchWorkloads.GET, round, couchUsers, keys.couchdbKeys(),
          CouchWorkloads.get(siege, couchdb, round)));
      if (plan.records()) {
        steps.add(readStep(MemcacheWorkloads.RECORD_READ, round, memcacheUsers, keys.memcacheRecords(),
            MemcacheWorkloads.recordRead(siege, plan.fields(), round)));
        steps.add(readStep(MemcacheWorkloads.RECORD_MULTI_READ, round, memcacheUsers, keys.memcacheRecords(),
            MemcacheWorkloads.recordMultiRead(siege, plan.fields(), round)));
        steps.add(readStep(CouchWorkloads.RECORD_READ, round, couchUsers, keys.couchdbRecords(),
            CouchWorkloads.recordRead(siege, plan.fields(), couchdb, round)));
      }
    }
    setUp(Populations.oneAfterAnother(steps))
        .protocols(CouchHttp.protocol(couchdb),
            memcache.servers(memcacheTarget.servers()).pipeline(siege.pipeline()).timings(run.memcacheTimings()))
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    Startup.orExit(() -> phases.prepare(run.injector()));
    run.loadStarts();
  }

  @Override
  public void after() {
    run.finish(List.of(memcacheTarget.describe(), couchdb.describe()), VersusSummary.of(run.simulation(), plan),
        phases.finish());
  }
}
