package couchbench.workloads;

import static io.gatling.javaapi.core.CoreDsl.doSwitch;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.onCase;

import couchbench.curve.Staircase;
import couchbench.curve.StepFigures;
import couchbench.distributions.KeyChoosers;
import couchbench.gatling.Pacing;
import couchbench.results.LiveRoute;
import couchbench.distributions.Mix;
import couchbench.startup.Console;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Choice;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.ObjectSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * One system's side of a Workload run, as Gatling chains: the load phase's insert of each record, and the operations
 * loop's iteration. An iteration draws an operation from the mix, waits for its intended start (under -Dtarget),
 * draws its key, runs the system's chain for that operation, and records its outcome and its latency on both clocks.
 * A subclass gives each operation's chain ({@link CouchOperations}, {@link MemcacheOperations}).
 */
public abstract class SystemOperations {

  private static final String USER = "couchbench workload user";
  private static final String LOAD_CLAIM = "couchbench workload load claim";

  /** The plan of the run. */
  protected final WorkloadPlan plan;

  final SystemRecords records;
  private final OperationTimes times;
  private final Mix<Operation> mix;
  private final KeyChoosers keyChoosers;
  private final AtomicInteger users = new AtomicInteger();
  private final AtomicLong firstStart = new AtomicLong();
  private final long tickNanos;
  private final Optional<Staircase> staircase;
  // Each operation's request name, made once: live metrics name every paced operation by it.
  private final Map<Operation, String> requestNames = new EnumMap<>(Operation.class);

  /**
   * @param system "couchdb" or "memcache"
   * @param plan the run's plan
   * @param times where every system records its operations' latencies
   */
  protected SystemOperations(String system, WorkloadPlan plan, OperationTimes times) {
    this.plan = plan;
    this.records = new SystemRecords(system, plan);
    this.times = times;
    this.mix = Mix.of(plan.proportions());
    this.keyChoosers = KeyChoosers.forRun(plan.distribution(), plan.records(), plan.expectedInserts(),
        plan.zipfianConstant(), records.inserts());
    this.tickNanos = plan.target() > 0 ? (long) (plan.threads() * 1e9 / plan.target()) : 0;
    this.staircase = plan.curve().map(steps -> new Staircase(steps, system, plan.threads(), Console::say));
    for (Operation operation : Operation.values()) {
      requestNames.put(operation, operation.requestName(system));
    }
  }

  /** @return the system's name, which starts its request names: "couchdb" or "memcache" */
  public String name() {
    return records.system();
  }

  /**
   * The load phase's insert of the record {@link #claimForLoad} claimed, at version 1.
   *
   * @return the insert, named "{@code <system>} load"
   */
  public abstract ChainBuilder loadInsert();

  /**
   * The chain of one operation on this system, on the record the iteration drew ({@link #user}).
   *
   * @param operation the operation
   * @return its chain: one request, or a group of the requests it takes
   */
  protected abstract ChainBuilder chain(Operation operation);

  /**
   * @param operation an operation run
   * @return the paths (a group, then a request) of its requests that must not fail: all but a write that a conflict
   *     may refuse, which is counted apart
   */
  protected abstract List<List<String>> mustNotFail(Operation operation);

  /** @return the server loaded, as the run describes it (never with a password) */
  public abstract String describeTarget();

  /** @return the system's Gatling protocol */
  public abstract ProtocolBuilder protocol();

  /** Before the load phase: what the system needs (a database). Nothing by default. */
  public void prepare() {}

  /**
   * @return the request paths of the run's assertion: the load's insert and every operation's requests, but the writes
   *     a conflict may refuse
   */
  public List<List<String>> requestsThatMustNotFail() {
    List<List<String>> paths = new ArrayList<>(List.of(List.of(name() + " load")));
    plan.operationsRun().forEach(operation -> paths.addAll(mustNotFail(operation)));
    return paths;
  }

  /** @return what the system did differently from YCSB's definitions, and why; said on the page */
  protected abstract List<String> notes();

  /** @return the server's own counts after the run beside what it acknowledged, in words */
  protected abstract List<String> serverCounts();

  /**
   * @return counts the record the session loaded last, unless its insert failed, and claims the next for the load
   *     phase into the session; -1 once every record is claimed
   */
  public Function<Session, Session> claimForLoad() {
    return session -> {
      if (session.contains(LOAD_CLAIM) && !session.isFailed()) {
        records.loadedOne();
      }
      return session.markAsSucceeded().set(LOAD_CLAIM, new LoadClaim(records.claimForLoad()));
    };
  }

  /** @return whether the session holds a record to load */
  public boolean loading(Session session) {
    return loadClaim(session).keyNumber() >= 0;
  }

  /** @return gives the virtual user its state: its key draws, its operation draws and its schedule */
  public Function<Session, Session> newUser() {
    return session -> {
      int index = users.getAndIncrement();
      UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create();
      ObjectSampler<Operation> operations = mix.sampler(random);
      return session.set(USER, new User(keyChoosers.forUser(random), operations::sample,
          () -> 1 + random.nextInt(plan.maxScanLength()), schedule(index)));
    };
  }

  // A user's intended starts: the staircase's step, -Dtarget's ticks, or none (each operation when the last ends).
  private LongUnaryOperator schedule(int user) {
    if (staircase.isPresent()) {
      staircase.get().begin();
      return staircase.get().intendedStarts(user);
    }
    if (tickNanos == 0) {
      return now -> now;
    }
    long start = scheduleStart() + user * tickNanos / plan.threads();
    long[] started = {0};
    return now -> start + started[0]++ * tickNanos;
  }

  /** @return with -Dtargets, whether a step of the staircase is under way: the operations' loop runs while it is */
  public boolean stepping() {
    return staircase.orElseThrow().running();
  }

  /**
   * @return how many operations the session's user runs with -Doperations: the operations spread evenly over the
   *     threads, the first ones one more when they do not divide
   */
  public Function<Session, Integer> operationsOfUser() {
    AtomicInteger counted = new AtomicInteger();
    return session -> {
      int index = counted.getAndIncrement() % plan.threads();
      long share = plan.operations() / plan.threads() + (index < plan.operations() % plan.threads() ? 1 : 0);
      return (int) share;
    };
  }

  /** @return one iteration of the operations loop: draw, wait for the intended start, run, record */
  public ChainBuilder nextOperation() {
    Map<Operation, ChainBuilder> chains = new EnumMap<>(Operation.class);
    plan.operationsRun().forEach(operation -> chains.put(operation, chain(operation)));
    List<Choice.WithKey> choices = chains.entrySet().stream()
        .map(operation -> onCase(operation.getKey()).then(operation.getValue())).toList();
    ChainBuilder draw = exec(session -> {
      User user = user(session);
      user.next(user.operations.get(), System.nanoTime());
      if (!paced()) {
        start(user);
      }
      return session;
    });
    // Under -Dtarget or -Dtargets, a wait for the intended start, then the start; else the draw starts it at once.
    ChainBuilder started = !paced() ? draw : draw
        .exec(Pacing.untilIntendedStart(session -> user(session).intendedStart))
        .exec(session -> {
          start(user(session));
          return session;
        });
    return started
        // Gatling's doSwitch takes two choices or more: a mix of one operation (workload C) is that operation.
        .exec(chains.size() == 1 ? chains.values().iterator().next()
            : doSwitch(session -> user(session).operation).on(choices))
        .exec(session -> {
          end(user(session), session.isFailed());
          return session.markAsSucceeded();
        });
  }

  /** @return the system's figures, after its operations; their pace is said on the console too */
  public WorkloadFigures.SystemFigures figures() {
    List<StepFigures> steps = staircase.map(Staircase::steps).orElse(List.of());
    WorkloadFigures.SystemFigures figures = new WorkloadFigures.SystemFigures(name(), records.loaded(),
        records.insertsTried(), times.seconds(name()), serverCounts(), notes(),
        times.figures(name(), plan.operationsRun()), steps, StepFigures.highestMet(steps));
    if (staircase.isEmpty()) {
      Console.say(figures.pace(plan.target()));
    }
    return figures;
  }

  /** @return the state of the session's user */
  static User user(Session session) {
    return session.get(USER);
  }

  /** @return the record the load phase claimed for the session */
  static LoadClaim loadClaim(Session session) {
    return session.get(LOAD_CLAIM);
  }

  /** A record claimed for the load phase: its number, or -1 when none is left; its key. */
  record LoadClaim(long keyNumber) {

    /** @return its key */
    String key() {
      return RecordContent.key(keyNumber);
    }
  }

  private boolean paced() {
    return tickNanos > 0 || staircase.isPresent();
  }

  private long scheduleStart() {
    firstStart.compareAndSet(0, System.nanoTime());
    return firstStart.get();
  }

  // The key is drawn as the operation starts, so that the version a read must find is the one acknowledged by then.
  private void start(User user) {
    user.keyNumber = user.operation == Operation.INSERT ? records.inserts().next() : user.keys.next();
    user.key = RecordContent.key(user.keyNumber);
    user.atLeast = records.versions().floor(user.keyNumber);
    user.scanLength = user.operation == Operation.SCAN ? user.scanLengths.get() : 0;
    user.actualStart = System.nanoTime();
  }

  private void end(User user, boolean failed) {
    long end = System.nanoTime();
    OperationTimes.Outcome outcome = user.conflict ? OperationTimes.Outcome.CONFLICT
        : user.torn ? OperationTimes.Outcome.TORN
        : failed ? OperationTimes.Outcome.FAILED : OperationTimes.Outcome.OK;
    boolean ok = outcome == OperationTimes.Outcome.OK;
    if (user.operation == Operation.INSERT) {
      // As YCSB does: an insert is acknowledged whatever its outcome, so that later records can be drawn.
      records.inserts().acknowledge(user.keyNumber);
    }
    if (user.write != null) {
      records.versions().end(user.write, ok);
    }
    if (user.written > 0 && ok) {
      records.versions().acknowledged(user.keyNumber, user.written);
    }
    times.record(name(), user.operation, outcome, user.intendedStart, user.actualStart, end);
    if (tickNanos > 0 && (ok || outcome == OperationTimes.Outcome.FAILED)) {
      // Under -Dtarget, live metrics time it from its intended start as the page does; a staircase sends its own.
      LiveRoute.current().intendedTime(requestNames.get(user.operation), ok, Math.max(0, end - user.intendedStart));
    }
    staircase.ifPresent(steps -> steps.record(ok, outcome == OperationTimes.Outcome.FAILED, user.intendedStart,
        user.actualStart, end));
  }
}
