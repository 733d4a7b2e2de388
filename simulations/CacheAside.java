import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.cacheaside.CacheAsideLoad;
import couchbench.cacheaside.CacheAsidePlan;
import couchbench.couchdb.CouchHttp;
import couchbench.gatling.LoadLoop;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * memcache in front of CouchDB, cache-aside: each read a memcache get, and on a miss CouchDB's read then a set with
 * -Dttl; each update a write to CouchDB, then -Dinvalidate=delete or set on memcache; keys drawn by -Ddistribution over
 * -Dkeys documents loaded before the load. Each read timed whole as the group "cache-aside hit" or "cache-aside miss";
 * the client's hits and misses held against memcached's own counters. -Dhot keys take a share of the reads, for
 * stampedes, their CouchDB reads counted per refill; -Dprotect=meta holds stampedes off with memcached's meta protocol.
 * -Dbackground=restart-cache empties the cache mid-run, for its warm-up. See docs/cache-aside.md.
 */
public class CacheAside extends CouchbenchSimulation {

  private final CacheAsidePlan plan = orExit(() -> CacheAsidePlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final MemcacheTarget memcached = memcacheTarget();
  private final CacheAsideLoad load = runs(orExit(() -> new CacheAsideLoad(plan, couchdb, memcached, run)));

  // The threads: each draws a key and a read or an update, runs it, and draws again, for -Doperations spread over the
  // threads or for -Dduration; a begun operation is finished.
  private final ScenarioBuilder threads = scenario(simulation()).exec(load.newUser());

  {
    setUp((plan.operations() > 0 ? threads.repeat(load.operationsOfUser()).on(load.nextOperation())
        : LoadLoop.during(threads, plan.duration(), load.nextOperation()))
        .injectOpen(atOnceUsers(plan.threads())))
        .protocols(CouchHttp.protocol(couchdb), memcacheProtocol(memcached))
        .assertions(CacheAsidePlan.emptiesTheCache(settings) ? couchDbNeverFails()
            : List.of(global().failedRequests().count().is(0L)));
  }

  // A cold cache: memcache's requests fail while memcached restarts, the experiment's own, counted on the page;
  // CouchDB's requests never may. (A path never taken fails its assertion: updates' only when there are updates.)
  private List<Assertion> couchDbNeverFails() {
    List<Assertion> assertions = new ArrayList<>(List.of(
        details(CacheAsideLoad.MISS, CacheAsideLoad.COUCH_GET).failedRequests().count().is(0L)));
    if (plan.update() > 0) {
      assertions.add(details(CacheAsideLoad.COUCH_UPDATE).failedRequests().count().is(0L));
    }
    return assertions;
  }
}
