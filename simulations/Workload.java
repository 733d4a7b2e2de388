import static couchbench.gatling.Populations.oneAfterAnother;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.gatling.LoadLoop;
import couchbench.requests.MemcacheDialect;
import couchbench.simulation.CouchbenchSimulation;
import couchbench.startup.Console;
import couchbench.targets.MemcacheTarget;
import couchbench.workloads.CouchOperations;
import couchbench.workloads.MemcacheOperations;
import couchbench.workloads.OperationTimes;
import couchbench.workloads.SystemOperations;
import couchbench.workloads.WorkloadPlan;
import couchbench.workloads.WorkloadSummary;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.util.List;
import java.util.stream.Stream;

/**
 * YCSB's core workloads A-F on CouchDB and memcache, one system after the other, each with the machine to itself: a
 * load phase inserts the records, then the threads run the mix of reads, updates, inserts, scans and
 * read-modify-writes over keys drawn from the workload's distribution, as fast as they go or at -Dtarget operations
 * per second; every read checked, every operation timed from its intended and from its actual start. See
 * docs/workloads.md.
 */
public class Workload extends CouchbenchSimulation {

  private final WorkloadPlan plan = orExit(() -> WorkloadPlan.from(settings));
  private final OperationTimes times = new OperationTimes();
  private final List<SystemOperations> systems = plan.systems().stream().map(this::operationsOn).toList();

  private SystemOperations operationsOn(String system) {
    if (system.equals(WorkloadPlan.COUCHDB)) {
      return orExit(() -> new CouchOperations(plan, times, couchdbTarget()));
    }
    MemcacheTarget memcached = memcacheTarget();
    return orExit(() -> new MemcacheOperations(plan, times, memcached, MemcacheDialect.spokenBy(settings, memcached),
        run.memcacheTimings(), run.memcacheConnections()));
  }

  // The load phase: the threads insert records 0 to -Drecords - 1, each once.
  private PopulationBuilder load(SystemOperations system) {
    return scenario(system.name() + " load")
        .exec(system.claimForLoad())
        .asLongAs(system::loading).on(exec(system.loadInsert()).exec(system.claimForLoad()))
        .injectOpen(atOnceUsers(plan.threads()));
  }

  // The operations: each thread draws an operation and its key at its intended start, runs it and times it, for
  // -Doperations spread over the threads, for each step of -Dtargets' staircase, or for -Dduration; a begun operation
  // is finished.
  private PopulationBuilder operations(SystemOperations system) {
    ScenarioBuilder threads = scenario(system.name() + " operations").exec(steadyLoadBegins()).exec(system.newUser());
    return (plan.operations() > 0 ? threads.repeat(system.operationsOfUser()).on(system.nextOperation())
        : plan.curve().isPresent() ? threads.asLongAs(session -> system.stepping()).on(system.nextOperation())
        : LoadLoop.during(threads, plan.duration(), system.nextOperation()))
        .injectOpen(atOnceUsers(plan.threads()));
  }

  {
    setUp(oneAfterAnother(systems.stream().flatMap(system -> Stream.of(load(system), operations(system))).toList()))
        .protocols(systems.stream().map(SystemOperations::protocol).toList())
        // Every request but a write that a conflict refused (counted apart, on the page) must succeed.
        .assertions(systems.stream().flatMap(system -> system.requestsThatMustNotFail().stream())
            .map(path -> details(path.toArray(String[]::new)).failedRequests().count().is(0L)).toList());
  }

  @Override
  protected void prepare() {
    Console.say("load: " + plan.describe());
    plan.memcacheLeftOut().ifPresent(Console::say);
    systems.forEach(SystemOperations::prepare);
  }

  @Override
  protected List<String> couchDatabases() {
    return plan.systems().contains(WorkloadPlan.COUCHDB) ? List.of(plan.database()) : List.of();
  }

  @Override
  protected Report<?> report() {
    return new Report<>(systems.stream().map(SystemOperations::describeTarget).toList(), new WorkloadSummary(),
        plan.figures(systems.stream().map(SystemOperations::figures).toList()));
  }
}
