package couchbench.bulkinsert;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.bodyStream;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.DatabaseInfo;
import couchbench.couchdb.DocBodies;
import couchbench.couchdb.DocWriteReply;
import couchbench.resources.CpuMeter;
import couchbench.results.Progress;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The named chains BulkInsert's step scenarios are made of, and the tally of each step they count into. A step's
 * users each send requests as long as the plan's {@link StepLength} says; each write reply is checked document by
 * document; the step's last user to end reads the database's {@code doc_count} and checks it against the documents
 * the step's replies acknowledged. CPU counters are read as a step's first user
 * starts and once its last user has ended.
 */
public final class BulkInsertChains {

  /** The request and scenario name of the unmeasured warm-up, one row in Gatling's report. */
  public static final String WARMUP = "warm-up";

  /** The request name of every step's doc_count verification, one row in Gatling's report. */
  public static final String DOC_COUNT_CHECK = "doc_count check";

  /** The name of a step's loop counter: the requests this user has sent in the step so far. */
  public static final String SENT = "bulkinsert.sent";

  private static final String REPLY = "bulkinsert.reply";
  private static final String DOC_COUNT = "bulkinsert.docCount";

  private final BulkInsertPlan plan;
  private final CouchTarget target;
  private final CpuMeter cpu;
  private final Map<BulkInsertStep, StepTally> tallies = new LinkedHashMap<>();
  private final List<StepTally> warmUpTallies = new CopyOnWriteArrayList<>();

  /**
   * The chains of a plan's steps against a target.
   *
   * @param plan the steps
   * @param target the CouchDB server
   * @param cpu the meter of this JVM's and the server's CPU time
   */
  public BulkInsertChains(BulkInsertPlan plan, CouchTarget target, CpuMeter cpu) {
    this.plan = plan;
    this.target = target;
    this.cpu = cpu;
    plan.steps().forEach(step -> tallies.put(step, new StepTally(step.threads())));
  }

  /**
   * A user of the step starts: the step's clock starts with its first user, who also reads the CPU counters and
   * says which step runs.
   *
   * @param step the step
   * @return the chain
   */
  public ChainBuilder userStarts(BulkInsertStep step) {
    StepTally tally = tallies.get(step);
    String announcement = "step " + (plan.steps().indexOf(step) + 1) + "/" + plan.steps().size() + ": "
        + plan.name(step) + " (at least " + step.documents() + " documents"
        + (plan.length().seconds() > 0 ? " and " + plan.length().seconds() + " s)" : ")");
    return exec(session -> {
      if (tally.userStarted()) {
        tally.cpuAtStart(cpu.read());
        Console.step(announcement);
      }
      return session;
    });
  }

  /**
   * Whether a user of the step sends another request: a condition for asLongAs with the counter {@link #SENT}, true
   * until the user has sent the step's requests per user and the step has run the plan's seconds.
   *
   * @param step the step
   * @return the condition
   */
  public Function<Session, Boolean> goesOn(BulkInsertStep step) {
    StepTally tally = tallies.get(step);
    StepLength length = plan.length();
    return session -> length.goesOn(session.getInt(SENT), step.requestsPerUser(), tally.nanosRunning());
  }

  /**
   * One request of the step (named after it, e.g. {@code bulk B=64 T=2}, with its round when there are several):
   * B documents to {@code _bulk_docs}, or one to {@code POST /db}; its reply checked document by document, then
   * counted into the step's tally.
   *
   * @param step the step
   * @return the chain
   */
  public ChainBuilder write(BulkInsertStep step) {
    return write(step, plan.name(step), tallies.get(step));
  }

  /**
   * One request of the kind a step sends, through that step's checks, under the request name {@link #WARMUP} and
   * counted in no step: the warm-up sends what the steps will, so that the JIT compiles it first.
   *
   * @param kind the kind of request, as {@link BulkInsertPlan#warmup()} lists it
   * @return the chain
   */
  public ChainBuilder warmUpWrite(BulkInsertStep kind) {
    StepTally tally = new StepTally(kind.threads());
    warmUpTallies.add(tally);
    return write(kind, WARMUP, tally);
  }

  /**
   * The sweep's progress for the console, from the tallies the steps keep anyway: the write requests so far (the
   * warm-up's too) and the failed ones, and the time left, the steps to go at the pace of those done (before the first
   * has ended: at the step-length rule's seconds, plus one between steps).
   *
   * @return the source of the console's progress line
   */
  public Progress.Source progress() {
    return new Progress.Source() {
      @Override
      public String counted() {
        return "writes";
      }

      @Override
      public Progress.Counts counts() {
        long requests = 0;
        long failed = 0;
        for (StepTally tally : allTallies()) {
          requests += tally.requests();
          failed += tally.failedRequests();
        }
        return new Progress.Counts(requests, failed);
      }

      @Override
      public Optional<Duration> left() {
        return timeLeft();
      }
    };
  }

  private List<StepTally> allTallies() {
    List<StepTally> all = new ArrayList<>(warmUpTallies);
    all.addAll(tallies.values());
    return all;
  }

  /** The steps to go, at the pace of those done since the first step started. */
  private Optional<Duration> timeLeft() {
    List<StepTally> steps = List.copyOf(tallies.values());
    long ended = steps.stream().filter(StepTally::hasEnded).count();
    if (steps.isEmpty()) {
      return Optional.empty();
    }
    if (ended == 0) {
      return Optional.of(Duration.ofSeconds(steps.size() * (Math.max(plan.length().seconds(), 1) + 1L)));
    }
    long sinceFirst = steps.get(0).nanosRunning();
    return Optional.of(Duration.ofNanos(sinceFirst / ended * (steps.size() - ended)));
  }

  /**
   * Says once, as the warm-up starts, what it sends.
   *
   * @return the chain
   */
  public ChainBuilder warmUpStarts() {
    AtomicBoolean announced = new AtomicBoolean();
    String announcement = "warm-up: " + plan.warmupRequests() + " unmeasured requests, of each kind the steps send"
        + " and any the JIT needs more of ("
        + plan.warmup().stream().map(kind -> kind.single() ? "single" : "B=" + kind.batchSize())
            .collect(Collectors.joining(", ")) + ")";
    return exec(session -> {
      if (announced.compareAndSet(false, true)) {
        Console.step(announcement);
      }
      return session;
    });
  }

  /**
   * Marks a user's end: a condition for doIf, so that only the step's last user reads doc_count.
   *
   * @param step the step
   * @return true for the step's last user to end
   */
  public Function<Session, Boolean> userEndsLast(BulkInsertStep step) {
    StepTally tally = tallies.get(step);
    return session -> tally.userEnded();
  }

  /**
   * Once every user of the step has ended: the CPU counters, then {@code GET /db}, whose {@code doc_count} must
   * equal the documents the step's replies acknowledged (request name {@link #DOC_COUNT_CHECK}).
   *
   * @param step the step
   * @return the chain
   */
  public ChainBuilder docCountCheck(BulkInsertStep step) {
    StepTally tally = tallies.get(step);
    Function<byte[], Long> docCount = bytes -> DatabaseInfo.parse(bytes).docCount();
    HttpRequestActionBuilder request =
        http(DOC_COUNT_CHECK)
            .get("/" + step.database())
            .check(
                status().is(200),
                // Saved by a check of its own: Gatling saves a check's value only when it passes.
                bodyBytes().transform(docCount).saveAs(DOC_COUNT),
                bodyBytes().transform(docCount).is(session -> tally.acknowledged())
                    .name("doc_count equals acknowledged documents"));
    return exec(session -> {
          tally.cpuAtEnd(cpu.read());
          return session.remove(DOC_COUNT);
        })
        .exec(CouchHttp.stopOnRefusal(target, request))
        .exec(session -> {
          if (session.contains(DOC_COUNT)) {
            tally.keepServerDocCount(session.getLong(DOC_COUNT));
          }
          return session;
        });
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
   * What each step did, in step order, with the server this JVM's meter read.
   *
   * @param loginRefused whether CouchDB refused the login during the run (CouchHttp.loginWasRefused())
   * @return the run's figures, for results.json and the summary
   */
  public BulkInsertFigures figures(boolean loginRefused) {
    return new BulkInsertFigures(tallies.entrySet().stream()
        .map(tally -> tally.getValue().figures(plan.name(tally.getKey()))).toList(),
        cpu.server().map(server -> server.name() + " (pid " + server.pid() + ")").orElse(null), loginRefused);
  }

  private Optional<String> warmupDatabase() {
    return plan.warmup().stream().findFirst().map(BulkInsertStep::database);
  }

  private ChainBuilder write(BulkInsertStep step, String requestName, StepTally tally) {
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
                // Parsed once and saved by a check of its own, then judged: Gatling saves a check's value only
                // when it passes, and a rejected reply's stored documents count too. Later checks see the save.
                // Read from the reply's pieces: bodyBytes() would first copy them into one array.
                bodyStream().transform(reply -> DocWriteReply.parse(reply, step.batchSize())).saveAs(REPLY),
                // The verdict needs only the save. A body check, which Gatling runs after the one above (it runs
                // status checks first), and the one that reads no body.
                bodyLength()
                    .transformWithSession((length, session) -> session.<DocWriteReply>get(REPLY).verdict())
                    .is(DocWriteReply.ALL_STORED)
                    .name("document results")
                    // The verdict is a few words, not the body: the report shows what was wrong.
                    .logActualValueInError(true));
    return exec(CouchHttp.stopOnRefusal(target, request))
        .exec(session -> {
          tally.countSent(step.batchSize());
          if (!session.contains(REPLY)) {
            tally.countUnanswered();
            return session; // no reply to count: Gatling's report has the request's error
          }
          tally.countReply(session.get(REPLY));
          return session.remove(REPLY);
        });
  }
}
