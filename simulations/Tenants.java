import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;
import couchbench.tenants.TenantsLoad;
import couchbench.tenants.TenantsPlan;
import io.gatling.javaapi.core.ScenarioBuilder;

/**
 * A login and a database per user: -Dtenants users created in _users before the load (-Diterations set for the run),
 * each authenticating by -Dauth=basic, cookie, jwt or proxy (or a comma list of them, dealt to the users in turn) and
 * reading and writing its own database; its login, its first request and its steady ones timed apart, and now and
 * then another user's database, a database never given and another user's _users document tried (in a shared
 * database: a write over another user's document), each of which must be refused. See docs/tenants.md.
 */
public class Tenants extends CouchbenchSimulation {

  private final TenantsPlan plan = orExit(() -> TenantsPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final TenantsLoad load = runs(new TenantsLoad(plan, couchdb, run));

  // The users' sessions (one per user, or -Dsessions of users drawn by -Dactive), all at once: each tries its wrong
  // logins (a user's first session), logs in (cookie), sends its first request and a probe of each kind, then reads
  // and writes its own documents for -Dduration, a probe every -DprobeEvery-th request; with -DcookieTimeout it then
  // tries its login's cookie, expired by then. Each step goes the way of the user's method.
  private final ScenarioBuilder users = scenario(simulation()).exec(load.newUser()).exec(load.signIn())
      .during(plan.duration(), false).on(load.nextRequest()).exec(load.signOff());

  // No assertion of Gatling's: a request CouchDB refuses for want of an open database (max_dbs_open) fails in Gatling's
  // report but not the run; the load counts it apart, and any other failure or a probe let in fails the run.
  {
    // The users' requests carry their own logins, never the admin's.
    setUp(users.injectOpen(atOnceUsers(plan.sessions())))
        .protocols(CouchHttp.protocol(couchdb.withoutCredentials()));
  }
}
