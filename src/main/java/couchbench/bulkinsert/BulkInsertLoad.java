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
import couchbench.targets.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The BulkInsert load in Gatling's terms. Steps run one after the other: a step's users write, then
 * one user reads the database's {@code doc_count} and checks it against the documents the step's
 * replies acknowledged, then the next step starts. Each write reply is checked document by document.
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
    plan.steps().forEach(step -> tallies.put(step, new StepTally()));
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
      PopulationBuilder verify =
          scenario("verify " + step.name()).exec(verify(step)).injectOpen(atOnceUsers(1));
      PopulationBuilder write =
          scenario(step.name()).exec(write(step, i + 1)).injectOpen(atOnceUsers(step.threads()));
      rest = write.andThen(rest == null ? verify : verify.andThen(rest));
    }
    BulkInsertStep warmup = plan.warmup();
    if (warmup.requestsPerUser() == 0) {
      return rest;
    }
    return scenario(WARMUP).exec(warmUp(warmup)).injectOpen(atOnceUsers(warmup.threads())).andThen(rest);
  }

  /**
   * Creates every step's database, fresh, before the load starts; a refused login stops here,
   * after one request.
   *
   * @param client the setup client
   */
  public void createDatabases(CouchDbClient client) {
    client.createDatabase(plan.warmup().database());
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
      client.deleteDatabase(plan.warmup().database());
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

  private ChainBuilder write(BulkInsertStep step, int number) {
    StepTally tally = tallies.get(step);
    byte[] body =
        step.single()
            ? DocBodies.document(plan.docSize())
            : DocBodies.bulk(step.batchSize(), plan.docSize());
    HttpRequestActionBuilder request =
        http(step.name())
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
    return exec(session -> {
          if (tally.userStarted()) {
            tally.cpuAtStart(cpu.read());
            Console.say("step " + number + "/" + plan.steps().size() + ": " + step.name()
                + " (" + step.documents() + " documents)");
          }
          return session;
        })
        .repeat(step.requestsPerUser())
        .on(CouchHttp.stopOnRefusal(target, request))
        .exec(session -> {
          tally.userEnded();
          return session;
        });
  }

  /** Single-document batches, as the small-B steps send: in its own database, in no tally. */
  private ChainBuilder warmUp(BulkInsertStep warmup) {
    return repeat(warmup.requestsPerUser()).on(CouchHttp.stopOnRefusal(target,
        http(WARMUP)
            .post(warmup.path())
            .body(ByteArrayBody(DocBodies.bulk(1, plan.docSize())))
            .check(status().in(201, 202))));
  }

  private ChainBuilder verify(BulkInsertStep step) {
    StepTally tally = tallies.get(step);
    // This population starts once every user of the step has ended.
    return exec(session -> {
          tally.cpuAtEnd(cpu.read());
          return session;
        })
        .exec(CouchHttp.stopOnRefusal(
        target,
        http(DOC_COUNT_CHECK)
            .get("/" + step.database())
            .check(
                status().is(200),
                bodyBytes()
                    .transform(bytes -> tally.recordServerCount(DatabaseInfo.parse(bytes).docCount()))
                    .is(session -> tally.stored())
                    .name("doc_count equals acknowledged documents"))));
  }
}
