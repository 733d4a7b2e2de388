import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.CouchHttp;
import couchbench.gatling.LoadLoop;
import couchbench.search.SearchLoad;
import couchbench.search.SearchPlan;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * Nouveau full-text search: documents generated from a seed loaded into CouchDB, their index built and timed, then
 * each search class asked by users while others write, every reply checked against the answer known from the data;
 * with -Drate, freshness writers meanwhile, each write searched for until found; with -Dtarget or -Dtargets, each class
 * alone at a rate, or along issue 46's staircase.
 * See docs/search.md.
 */
public class Search extends CouchbenchSimulation {

  private final SearchPlan plan = orExit(() -> SearchPlan.from(settings));
  private final CouchTarget couchdb = couchdbTarget();
  private final SearchLoad load = runs(new SearchLoad(plan, couchdb));

  // A closed model: each user asks its next search once the last is answered, as an application's workers do;
  // -Drequests each, or for -Dduration.
  private PopulationBuilder searchers() {
    ScenarioBuilder searchers = scenario("searches").exec(load.newUser());
    return (plan.requests() > 0 ? searchers.repeat(plan.requests()).on(load.nextRequest())
        : LoadLoop.during(searchers, plan.duration(), load.nextRequest())).injectOpen(atOnceUsers(plan.users()));
  }

  // -Dtarget, -Dtargets: each class (of each engine) alone at the rate, step after step, then the next.
  private PopulationBuilder climbers() {
    return oneAfterAnother(plan.questions().stream().map(question -> scenario("searches " + question.name())
        .exec(load.climb(question)).injectOpen(atOnceUsers(plan.users()))).toList());
  }

  /** -Drate: a freshness writer each 1/rate s for -Dduration, each writing a document and searching for it. */
  private List<PopulationBuilder> searchersAndWriters() {
    List<PopulationBuilder> everyone = new ArrayList<>(List.of(plan.curve().isPresent() ? climbers() : searchers()));
    if (plan.rate() > 0) {
      everyone.add(scenario("freshness writers").exec(load.freshWriter())
          .injectOpen(constantUsersPerSec(plan.rate()).during(plan.duration())));
    }
    return everyone;
  }

  {
    setUp(searchersAndWriters())
        .protocols(CouchHttp.protocol(couchdb))
        // A search answered wrong (or refused), or a write refused, fails the run.
        .assertions(global().failedRequests().count().is(0L));
  }
}
