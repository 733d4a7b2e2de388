package couchbench.bulkinsert;

import couchbench.couchdb.DocWriteReply;
import couchbench.resources.CpuMeter;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * What one step did, counted from the replies as they arrive: documents the server acknowledged,
 * replies and failed replies, the step's wall time from its first user's start to its last user's
 * end, and the CPU time the load generator and the server used meanwhile. Shared by the step's
 * virtual users, hence atomic.
 */
public final class StepTally {

  private static final long UNSET = Long.MIN_VALUE;

  private final int users;
  private final LongSupplier clock;
  private final AtomicLong usersEnded = new AtomicLong();
  private final AtomicLong started = new AtomicLong(UNSET);
  private final AtomicLong startedAtMillis = new AtomicLong(BulkInsertFigures.NOT_STARTED);
  private final AtomicLong ended = new AtomicLong(UNSET);
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong unanswered = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong replies = new AtomicLong();
  private final AtomicLong failedReplies = new AtomicLong();
  private final AtomicLong serverDocCount = new AtomicLong(BulkInsertFigures.NOT_READ);
  private final AtomicReference<CpuMeter.Reading> cpuAtStart = new AtomicReference<>();
  private final AtomicReference<CpuMeter.Reading> cpuAtEnd = new AtomicReference<>();
  private final StepProgress progress = new StepProgress();

  /**
   * A tally for a step of this many users.
   *
   * @param users the step's virtual users
   */
  public StepTally(int users) {
    this(users, System::nanoTime);
  }

  /**
   * A tally for a step of this many users, timed by the given clock: a test's, to know the seconds beforehand.
   *
   * @param users the step's virtual users
   * @param clock nanoseconds, as {@link System#nanoTime()}
   */
  StepTally(int users, LongSupplier clock) {
    this.users = users;
    this.clock = clock;
  }

  /**
   * Marks a user's start; the first call starts the step's clock.
   *
   * @return true for the step's first user
   */
  public boolean userStarted() {
    boolean first = started.compareAndSet(UNSET, clock.getAsLong());
    if (first) {
      // The wall clock too, for Merge to line up the injectors' windows; the step's seconds stay nanoTime's.
      startedAtMillis.set(System.currentTimeMillis());
    }
    return first;
  }

  /**
   * Marks a user's end; the last one stops the step's clock.
   *
   * @return true for the step's last user to end
   */
  public boolean userEnded() {
    long now = clock.getAsLong();
    ended.accumulateAndGet(now, Math::max);
    return usersEnded.incrementAndGet() == users;
  }

  /**
   * Keeps the CPU counters read as the step starts.
   *
   * @param reading the counters
   */
  public void cpuAtStart(CpuMeter.Reading reading) {
    cpuAtStart.set(reading);
  }

  /**
   * Keeps the CPU counters read once every user of the step has ended.
   *
   * @param reading the counters
   */
  public void cpuAtEnd(CpuMeter.Reading reading) {
    cpuAtEnd.set(reading);
  }

  /** @return nanoseconds since the step's first user started, 0 before */
  public long nanosRunning() {
    long start = started.get();
    return start == UNSET ? 0 : clock.getAsLong() - start;
  }

  /**
   * Counts the documents of one write request that has ended, with a reply or without.
   *
   * @param documents the documents it sent
   */
  public void countSent(int documents) {
    sent.addAndGet(documents);
    requests.incrementAndGet();
  }

  /** Counts one write request that ended without a reply to count (refused, cut off, or a status not 201/202). */
  public void countUnanswered() {
    unanswered.incrementAndGet();
  }

  /**
   * Counts one write reply.
   *
   * @param reply the parsed reply
   */
  public void countReply(DocWriteReply reply) {
    progress.add(clock.getAsLong() - started.get(), acknowledged.addAndGet(reply.stored()));
    replies.incrementAndGet();
    if (!reply.problems().isEmpty()) {
      failedReplies.incrementAndGet();
    }
  }

  /**
   * Keeps the database's own document count, read after the step.
   *
   * @param docCount {@code doc_count} of the step's database
   */
  public void keepServerDocCount(long docCount) {
    serverDocCount.set(docCount);
  }

  /** @return write requests that have ended so far, with a reply or without */
  public long requests() {
    return requests.get();
  }

  /** @return write requests that failed so far: no reply to count, or a reply that did not store every document */
  public long failedRequests() {
    return unanswered.get() + failedReplies.get();
  }

  /** @return whether the step's first user has started */
  public boolean hasStarted() {
    return started.get() != UNSET;
  }

  /** @return whether every user of the step has ended */
  public boolean hasEnded() {
    return usersEnded.get() == users;
  }

  /** @return documents the server acknowledged */
  public long acknowledged() {
    return acknowledged.get();
  }

  /**
   * What the step did, for results.json.
   *
   * @param name the step's request name
   * @return its figures
   */
  public BulkInsertFigures.Step figures(String name) {
    long start = started.get();
    long end = ended.get();
    CpuMeter.Reading atStart = cpuAtStart.get();
    CpuMeter.Reading atEnd = cpuAtEnd.get();
    BulkInsertFigures.Cpu cpu = null;
    if (atStart != null && atEnd != null) {
      CpuMeter.Reading used = atEnd.since(atStart);
      cpu = new BulkInsertFigures.Cpu(used.client().orElse(null), used.user().orElse(null),
          used.system().orElse(null), used.jit().orElse(null), used.gc().orElse(null),
          atStart.server().orElse(null), atEnd.server().orElse(null));
    }
    return new BulkInsertFigures.Step(name, users, sent.get(), acknowledged.get(), replies.get(), failedReplies.get(),
        serverDocCount.get(), startedAtMillis.get(), start == UNSET || end == UNSET ? 0 : (end - start) / 1e9,
        progress.points(), cpu);
  }
}
