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
 * machine to itself. See README.md.
 */
public class CouchVsMemcache extends Simulation {

  private final Settings settings = Startup.settings();
  private final VersusPlan plan = Startup.orExit(() -> VersusPlan.from(settings));
  private final SiegePlan siege = plan.siege();
  private final RunOutput run = Startup.orExit(() -> RunOutput.of(CouchVsMemcache.class, settings));
  private final MemcacheTarget memcacheTarget = Startup.orExit(() -> Targets.memcache(settings));
  private final CouchTarget couchdb = Startup.orExit(() -> Targets.couchdb(settings));
  private final VersusPhases phases = new VersusPhases(plan, memcacheTarget, couchdb);

  // Every step: siege's users sending back to back; a begun iteration (a whole record) is finished, as siege does.
  private PopulationBuilder step(String name, int users, ChainBuilder iteration) {
    return scenario(name).during(siege.duration(), false).on(iteration).injectOpen(atOnceUsers(users));
  }

  // A read step draws its keys from a write step's key file; when that came out empty, its users end at once.
  private PopulationBuilder readStep(String name, int users, KeyHandoff written, ChainBuilder read) {
    return scenario(name).doIf(session -> written.ready()).then(during(siege.duration(), false)
        .on(exec(KeyFile.randomKey(written::keys)).exec(read))).injectOpen(atOnceUsers(users));
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
    steps.add(phases.beforeWrites());
    steps.add(step(MemcacheWorkloads.SET, memcacheUsers,
        MemcacheWorkloads.set(siege, phases.memcacheKeys().written(), 1)));
    steps.add(step(CouchWorkloads.SET, couchUsers, CouchWorkloads.set(siege, couchdb, phases.couchdbKeys().written(), 1)));
    if (plan.records()) {
      steps.add(step(MemcacheWorkloads.RECORD_WRITE, memcacheUsers,
          MemcacheWorkloads.recordWrite(siege, phases.memcacheFields(), 1)));
      steps.add(step(CouchWorkloads.RECORD_WRITE, couchUsers,
          CouchWorkloads.recordWrite(siege, plan.fields(), couchdb, phases.couchdbRecords().written(), 1)));
    }
    steps.add(phases.betweenPhases());
    steps.add(readStep(MemcacheWorkloads.GET, memcacheUsers, phases.memcacheKeys(), MemcacheWorkloads.get(siege, 1)));
    steps.add(readStep(CouchWorkloads.GET, couchUsers, phases.couchdbKeys(), CouchWorkloads.get(siege, couchdb, 1)));
    if (plan.records()) {
      steps.add(readStep(MemcacheWorkloads.RECORD_READ, memcacheUsers, phases.memcacheRecords(),
          MemcacheWorkloads.recordRead(siege, plan.fields(), 1)));
      steps.add(readStep(MemcacheWorkloads.RECORD_MULTI_READ, memcacheUsers, phases.memcacheRecords(),
          MemcacheWorkloads.recordMultiRead(siege, plan.fields(), 1)));
      steps.add(readStep(CouchWorkloads.RECORD_READ, couchUsers, phases.couchdbRecords(),
          CouchWorkloads.recordRead(siege, plan.fields(), couchdb, 1)));
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
    VersusSummary.Phases ended = phases.finish();
    run.finish(List.of(memcacheTarget.describe(), couchdb.describe()),
        log -> VersusSummary.page(run.simulation(), plan, memcacheTarget, couchdb, ended, log));
  }
}
