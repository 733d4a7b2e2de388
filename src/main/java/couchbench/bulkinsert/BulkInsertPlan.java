package couchbench.bulkinsert;

import couchbench.rounds.Rounds;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The BulkInsert sweep as parameters say: for each thread count T, the one-document-per-request
 * step, then one bulk step per batch size B, each in its own fresh database; the whole sweep once per round
 * ({@code -Drounds}), round after round. One injector of several
 * ({@code -Dinjector=I/N}) creates its share of each step's documents, with T users of its own, in databases of its
 * own (named with its index), so that each step's doc_count check stays its own.
 *
 * @param steps the steps of every round, in the order they run
 * @param docs documents each step creates at least (this injector's share of -Ddocs)
 * @param docSize characters of random text per document, 0 for the seed's empty {@code {}}
 * @param keep true to leave the step databases in place after the run
 * @param warmup the unmeasured warm-up before the first step: one step for each kind of request the
 *     steps send (single, and each batch size), in the steps' order, all in one database; empty for none
 * @param rounds how many times the sweep runs
 * @param length how long each step goes on: its requests per user and its seconds at least
 */
public record BulkInsertPlan(List<BulkInsertStep> steps, int docs, int docSize, boolean keep,
    List<BulkInsertStep> warmup, Rounds rounds, StepLength length) {

  /** The seed's batch sizes: powers of the square root of two, 1 to 1024. */
  public static final List<Integer> SEED_BATCH_SIZES =
      List.of(1, 2, 4, 5, 8, 11, 16, 22, 32, 45, 64, 90, 128, 181, 256, 362, 512, 724, 1024);

  /** The seed's thread counts. */
  public static final List<Integer> SEED_THREADS = List.of(1, 2, 3);

  /** Documents per step by default: three full batches of 1024, so each of 3 users sends one. */
  public static final int DEFAULT_DOCS = 3072;

  /**
   * Warm-up documents of each kind of request by default (at least one request per user each): enough
   * for the JIT to compile the request path, with every body and reply size the steps will see, before
   * the first measured step, which otherwise pays for it (measured in docs/benchmarks.md).
   */
  public static final int DEFAULT_WARMUP = 600;

  /**
   * Requests of each kind the default warm-up sends at least, up to {@link #WARMUP_JIT_MAX_DOCS} documents (an
   * explicit -Dwarmup is sent exactly as given):
   * C1 compiles a method after about 200 calls, and a path the warm-up took only a few times (600 documents at B=64
   * are 10 requests) ran interpreted through the first measured step's first 200 requests, costing about 1 ms of
   * client CPU per request and 13% of that step's docs/s (docs/benchmarks.md).
   */
  public static final int WARMUP_JIT_REQUESTS = 256;

  /** What the JIT floor may add to a kind's warm-up at most, in documents: at large B, few requests take long. */
  public static final int WARMUP_JIT_MAX_DOCS = 16_384;

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings batchSizes, threads, docs, docSize, single, keep, warmup, injector, rounds, stepRequests,
   *     stepSeconds
   * @return the plan
   */
  public static BulkInsertPlan from(Settings settings) {
    List<Integer> batchSizes = settings.intList("batchSizes", SEED_BATCH_SIZES, 1);
    List<Integer> threads = settings.intList("threads", SEED_THREADS, 1);
    InjectorShare injector = InjectorShare.from(settings);
    int docs = injector.atLeastOne("docs", settings.intValue("docs", DEFAULT_DOCS, 1));
    int docSize = settings.intValue("docSize", 0, 0);
    boolean single = settings.booleanValue("single", true);
    Rounds rounds = Rounds.from(settings);
    StepLength length = StepLength.from(settings);
    String run = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss")) + injector.databaseSuffix();
    List<BulkInsertStep> steps = new ArrayList<>();
    for (int round : rounds.numbers()) {
      // A round's databases are its own, so that each step's doc_count check stays its own.
      String suffix = rounds.repeated() ? "_r" + round : "";
      for (int t : threads) {
        if (single) {
          steps.add(step(true, 1, t, docs, length, run, suffix, round));
        }
        for (int b : batchSizes) {
          steps.add(step(false, b, t, docs, length, run, suffix, round));
        }
      }
    }
    int warmupDocs = settings.intValue("warmup", DEFAULT_WARMUP, 0);
    boolean jitFloor = settings.value("warmup").isEmpty();
    int users = threads.stream().mapToInt(Integer::intValue).max().orElse(1);
    String warmupDatabase = "couchbench_bulkinsert_" + run + "_warmup";
    List<BulkInsertStep> warmup = new ArrayList<>();
    for (BulkInsertStep step : steps) {
      // Each kind of request once, as the steps send it: the same body, the same size of reply.
      BulkInsertStep kind = new BulkInsertStep(step.single(), step.batchSize(), users,
          warmupRequestsPerUser(warmupDocs, jitFloor, step.batchSize(), users), warmupDatabase, 1);
      if (warmupDocs > 0 && !warmup.contains(kind)) {
        warmup.add(kind);
      }
    }
    if (jitFloor && warmupDocs > 0) {
      jitMakeUp(warmup, users, warmupDatabase).ifPresent(warmup::add);
    }
    return new BulkInsertPlan(List.copyOf(steps), docs, docSize, settings.booleanValue("keep", false),
        List.copyOf(warmup), rounds, length);
  }

  /**
   * A step's Gatling request and scenario name: its name, with its round when there are several.
   *
   * @param step a step of this plan
   * @return e.g. {@code bulk B=64 T=2}, or {@code bulk B=64 T=2 round 3}
   */
  public String name(BulkInsertStep step) {
    return rounds.name(step.name(), step.round());
  }

  /** @return the warm-up's users: as many as the largest step's (0 without a warm-up) */
  public int warmupUsers() {
    return warmup.stream().mapToInt(BulkInsertStep::threads).max().orElse(0);
  }

  /** @return the warm-up's requests, of all its users and kinds */
  public long warmupRequests() {
    return warmup.stream().mapToLong(kind -> (long) kind.requestsPerUser() * kind.threads()).sum();
  }

  /** The warm-up of one kind: its documents, and with the JIT's floor at least its requests, within its bound. */
  static int warmupRequestsPerUser(int warmupDocs, boolean jitFloor, int batchSize, int users) {
    long requests = ceil(warmupDocs, batchSize);
    if (jitFloor) {
      requests = Math.max(requests, Math.min(WARMUP_JIT_REQUESTS, ceil(WARMUP_JIT_MAX_DOCS, batchSize)));
    }
    return (int) Math.max(1, ceil(requests, users));
  }

  /**
   * What a warm-up of large batches only lacks for the JIT: with -DbatchSizes=1024, 16 requests, and the code every
   * request runs (Gatling's, Netty's, the checks') reached the JIT's thresholds 70-90 requests into the first step,
   * whose client CPU then held the compiler's (docs/cpu-per-request.md). The JIT counts calls, not bytes: requests of
   * one document each to {@code _bulk_docs} make up the {@link #WARMUP_JIT_REQUESTS}, in a fraction of the time.
   *
   * @param warmup the warm-up's kinds, each the steps send
   * @param users the warm-up's users
   * @param database the warm-up's database
   * @return the kind that makes up the floor, if the kinds fall short of it
   */
  static Optional<BulkInsertStep> jitMakeUp(List<BulkInsertStep> warmup, int users, String database) {
    long missing = WARMUP_JIT_REQUESTS
        - warmup.stream().mapToLong(kind -> (long) kind.requestsPerUser() * kind.threads()).sum();
    return missing <= 0
        ? Optional.empty()
        : Optional.of(new BulkInsertStep(false, 1, users, (int) ceil(missing, users), database, 1));
  }

  private static long ceil(long dividend, long divisor) {
    return (dividend + divisor - 1) / divisor;
  }

  private static BulkInsertStep step(
      boolean single, int batchSize, int threads, int docs, StepLength length, String run, String suffix, int round) {
    String database =
        "couchbench_bulkinsert_" + run + (single ? "_single" : "_b" + batchSize) + "_t" + threads + suffix;
    return new BulkInsertStep(single, batchSize, threads, length.requestsPerUser(docs, batchSize, threads), database,
        round);
  }
}
