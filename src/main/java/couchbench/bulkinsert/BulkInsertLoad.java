package couchbench.bulkinsert;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.DatabaseInfo;
import couchbench.couchdb.DocBodies;
import couchbench.couchdb.DocWriteReply;
import couchbench.resources.CpuMeter;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The BulkInsert load in Gatling's terms. Steps run one after the other: a step's users write, then
 * the last of them to end reads the database's {@code doc_count} and checks it against the documents
 * the step's replies acknowledged, then the next step starts. Each write reply is checked document by document.
 * CPU counters are read as a step's first user starts and once its last user has ended.
 */
public final class BulkInsertLoad {

  /** The request name of the unmeasured warm-up, one row in Gatling's report. */
  public static final String WARMUP = "warm-up";

  /** The request name of every step's doc_count verification, one row in Gatling's report. */
  public static final String DOC_COUNT_CHECK = "doc_count check";

  private final BulkInsertPlan plan;
  private final CouchTarget target;
  private final CpuMeter cpu;
  private final Map<BulkInsertStep, StepTally> tallies = new LinkedHashMap<>();

  /**
   * The load for a plan against a target.
   *
   * @param plan the steps
   * @param target the CouchDB server
   * @param cpu the meter of this JVM's and the server's CPU time
   */
  public BulkInsertLoad(BulkInsertPlan plan, CouchTarget target, CpuMeter cpu) {
    this.plan = plan;
    this.target = target;
    this.cpu = cpu;
    plan.steps().forEach(step -> tallies.put(step, new StepTally(step.threads())));
  }

  /**
   * All steps as one chain of Gatling populations, each starting when the previous one ends.
   *
   * @return the first population, with the rest chained after it
   */
  public PopulationBuilder populations() {
    List<BulkInsertStep> steps = plan.steps();
    PopulationBuilder rest = null;
    for (int i = steps.size() - 1; i >= 0; i--) {
      BulkInsertStep step = steps.get(i);
      PopulationBuilder write =
          scenario(step.name()).exec(write(step, i + 1)).injectOpen(atOnceUsers(step.threads()));
      rest = rest == null ? write : write.andThen(rest);
    }
    if (plan.warmup().isEmpty()) {
      return rest;
    }
    return scenario(WARMUP).exec(warmUp()).injectOpen(atOnceUsers(plan.warmup().get(0).threads())).andThen(rest);
  }

  /**
   * Creates every step's database, fresh, before the load starts; a refused login stops here,
   * after one request.
   *
   * @param client the setup client
   */
  public void createDatabases(CouchDbClient client) {
    warmupDatabase().ifPresent(client::createDatabase);
    plan.steps().forEach(step -> client.createDatabase(step.database()));
  }

  /**
   * Deletes the warm-up database, and the step databases unless the plan keeps them; a failure
   * here is reported, not thrown, so that the run's results are still written. After a refused
   * login the client sends nothing more, and the databases stay.
   *
   * @param client the setup client
   */
  public void dropDatabases(CouchDbClient client) {
    try {
      warmupDatabase().ifPresent(client::deleteDatabase);
      if (!plan.keep()) {
        plan.steps().forEach(step -> client.deleteDatabase(step.database()));
      }
    } catch (CouchDbException e) {
      Console.say("could not delete the step databases: " + e.getMessage());
    }
  }

  /**
   * What each step did, in step order.
   *
   * @return the tallies by step
   */
  public Map<BulkInsertStep, StepTally> tallies() {
    return tallies;
  }

  private Optional<String> warmupDatabase() {
    return plan.warmup().stream().findFirst().map(BulkInsertStep::database);
  }

  private ChainBuilder write(BulkInsertStep step, int number) {
    StepTally tally = tallies.get(step);
    return exec(session -> {
          if (tally.userStarted()) {
            tally.cpuAtStart(cpu.read());
            Console.say("step " + number + "/" + plan.steps().size() + ": " + step.name()
                + " (" + step.documents() + " documents)");
          }
          return session;
        })
        .exec(requests(step, step.name(), tally))
        // The step's last user reads the count, in the step's own population: Gatling starts each
        // population on a tick of its injector, about a second apart, and a sweep has dozens of steps.
        .doIf(session -> tally.userEnded())
        .then(verify(step));
  }

  /**
   * A user's requests of a step, each reply checked document by document into the tally. The
   * warm-up sends its requests through this same chain, so that the JIT compiles what the steps run.
   */
  private ChainBuilder requests(BulkInsertStep step, String requestName, StepTally tally) {
    byte[] body =
        step.single()
            ? DocBodies.document(plan.docSize())
            : DocBodies.bulk(step.batchSize(), plan.docSize());
    HttpRequestActionBuilder request =
        http(requestName)
            .post(step.path())
            .body(ByteArrayBody(body))
            .check(
                status().in(201, 202),
                bodyBytes()
                    .transform(bytes -> tally.record(DocWriteReply.parse(bytes, step.batchSize())).verdict())
                    .is(DocWriteReply.ALL_STORED)
                    .name("document results")
                    // The verdict is a few words, not the body: the report shows what was wrong.
                    .logActualValueInError(true));
    return repeat(step.requestsPerUser()).on(CouchHttp.stopOnRefusal(target, request));
  }

  /**
   * Every kind of request the steps send, one after the other, into the warm-up database; counted in
   * no step.
   */
  private ChainBuilder warmUp() {
    AtomicBoolean announced = new AtomicBoolean();
    long requests = plan.warmup().stream().mapToLong(kind -> (long) kind.requestsPerUser() * kind.threads()).sum();
    ChainBuilder warmUp = exec(session -> {
      if (announced.compareAndSet(false, true)) {
        Console.say("warm-up: " + requests + " unmeasured requests, of each kind the steps send ("
            + plan.warmup().stream().map(kind -> kind.single() ? "single" : "B=" + kind.batchSize())
                .collect(Collectors.joining(", ")) + ")");
      }
      return session;
    });
    for (BulkInsertStep kind : plan.warmup()) {
      warmUp = warmUp.exec(requests(kind, WARMUP, new StepTally(kind.threads())));
    }
    return warmUp;
  }

  private ChainBuilder verify(BulkInsertStep step) {
    StepTally tally = tallies.get(step);
    HttpRequestActionBuilder docCount =
        http(DOC_COUNT_CHECK)
            .get("/" + step.database())
            .check(
                status().is(200),
                bodyBytes()
                    .transform(bytes -> tally.recordServerCount(DatabaseInfo.parse(bytes).docCount()))
                    .is(session -> tally.stored())
                    .name("doc_count equals acknowledged documents"));
    // Every user of the step has ended by now.
    return exec(session -> {
          tally.cpuAtEnd(cpu.read());
          return session;
        })
        .exec(CouchHttp.stopOnRefusal(target, docCount));
  }
}
