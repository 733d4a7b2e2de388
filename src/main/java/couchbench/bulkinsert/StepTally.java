package couchbench.bulkinsert;

import couchbench.couchdb.DocWriteReply;
import couchbench.resources.CpuMeter;
import java.util.List;
import java.util.Optional;
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
  private final AtomicLong ended = new AtomicLong(UNSET);
  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong acknowledged = new AtomicLong();
  private final AtomicLong replies = new AtomicLong();
  private final AtomicLong failedReplies = new AtomicLong();
  private final AtomicLong serverDocCount = new AtomicLong(-1);
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
    return started.compareAndSet(UNSET, clock.getAsLong());
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

  /** @return the CPU time used from the step's start to its end; empty if the step did not run to its end */
  public Optional<CpuMeter.Reading> cpu() {
    CpuMeter.Reading start = cpuAtStart.get();
    CpuMeter.Reading end = cpuAtEnd.get();
    return start == null || end == null ? Optional.empty() : Optional.of(end.since(start));
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

  /** @return documents of the write requests that ended, with a reply or without */
  public long sent() {
    return sent.get();
  }

  /** @return documents the server acknowledged */
  public long acknowledged() {
    return acknowledged.get();
  }

  /** @return write replies received */
  public long replies() {
    return replies.get();
  }

  /** @return write replies that reported a problem */
  public long failedReplies() {
    return failedReplies.get();
  }

  /** @return the database's doc_count after the step, or -1 if it was not read */
  public long serverDocCount() {
    return serverDocCount.get();
  }

  /** @return seconds from the first user's start to the last user's end, 0 if the step never ran */
  public double seconds() {
    long start = started.get();
    long end = ended.get();
    return start == UNSET || end == UNSET ? 0 : (end - start) / 1e9;
  }

  /** @return documents acknowledged so far against seconds since the step's start, at reply after reply */
  List<StepProgress.Point> progress() {
    return progress.points();
  }

  /** @return acknowledged documents per second of wall time, 0 if the step never ran */
  public double docsPerSecond() {
    double seconds = seconds();
    return seconds > 0 ? acknowledged() / seconds : 0;
  }
}
