package couchbench.replication;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The writes into the sources while continuous replications run: when each was acknowledged, and how long each took
 * to reach its target. Also when each job's first copy was done, which its writers wait for: the lag is then that of a
 * replication following its source, not of one still copying.
 */
final class WriteLedger {

  private final List<AtomicLongArray> acknowledged = new ArrayList<>();
  private final List<CountDownLatch> copies = new ArrayList<>();
  private final AtomicInteger writersLeft;
  private final AtomicLong lastAcknowledged = new AtomicLong();
  private final Histogram lagMicros = new ConcurrentHistogram(3);
  private final Map<Long, long[]> bySecond = new ConcurrentSkipListMap<>();
  private final AtomicLong failed = new AtomicLong();
  private volatile long loadStart;

  /**
   * @param jobs the replications
   * @param writes the writes into each source
   */
  WriteLedger(int jobs, int writes) {
    for (int job = 0; job < jobs; job++) {
      acknowledged.add(new AtomicLongArray(writes));
      copies.add(new CountDownLatch(1));
    }
    writersLeft = new AtomicInteger(jobs);
  }

  /** @param nanos when the load starts, on System.nanoTime's clock: the origin of the lag's seconds */
  void loadStarts(long nanos) {
    loadStart = nanos;
  }

  /**
   * @param job a replication
   * @param number a write into its source
   * @param nanos when its acknowledgement came, on System.nanoTime's clock
   */
  void acknowledged(int job, int number, long nanos) {
    acknowledged.get(job).set(number, nanos);
    lastAcknowledged.accumulateAndGet(nanos, Math::max);
  }

  /** A write was refused, or got no reply. */
  void failed() {
    failed.incrementAndGet();
  }

  /**
   * @param job a replication
   * @param number a write
   * @return when it was acknowledged; 0 if it was not (yet)
   */
  long acknowledgedAt(int job, int number) {
    return acknowledged.get(job).get(number);
  }

  /**
   * @param acknowledged when the write was acknowledged, on System.nanoTime's clock
   * @param lagNanos how long after that it reached the target
   */
  void replicated(long acknowledged, long lagNanos) {
    lagMicros.recordValue(lagNanos / 1000);
    // By the second of its acknowledgement: a stretch of slow seconds is a gap, e.g. a target restarting.
    long[] second = bySecond.computeIfAbsent((acknowledged - loadStart) / 1_000_000_000L, any -> new long[2]);
    synchronized (second) {
      second[0]++;
      second[1] = Math.max(second[1], lagNanos / 1000);
    }
  }

  /** @return per second of the load, by the writes' acknowledgement: the writes, and their longest lag (µs) */
  List<ReplicateFigures.LagSecond> lagBySecond() {
    List<ReplicateFigures.LagSecond> seconds = new ArrayList<>();
    bySecond.forEach((second, counts) -> {
      synchronized (counts) {
        seconds.add(new ReplicateFigures.LagSecond(second, counts[0], counts[1]));
      }
    });
    return seconds;
  }

  /** @param job a replication whose target holds every document its source held as it started */
  void copied(int job) {
    copies.get(job).countDown();
  }

  /**
   * @param job a replication
   * @return whether its first copy is done
   */
  boolean isCopied(int job) {
    return copies.get(job).getCount() == 0;
  }

  /** A writer wrote its last document. */
  void writerDone() {
    writersLeft.decrementAndGet();
  }

  /** @return whether every writer is done */
  boolean writersDone() {
    return writersLeft.get() == 0;
  }

  /** @return when the last write was acknowledged; 0 before any */
  long lastAcknowledged() {
    return lastAcknowledged.get();
  }

  /** @return the writes acknowledged, over all sources */
  long acknowledgedCount() {
    long count = 0;
    for (AtomicLongArray job : acknowledged) {
      for (int number = 0; number < job.length(); number++) {
        count += job.get(number) > 0 ? 1 : 0;
      }
    }
    return count;
  }

  /** @return the writes refused or unanswered */
  long failedCount() {
    return failed.get();
  }

  /** @return each write's lag, in microseconds */
  Histogram lag() {
    return lagMicros;
  }
}
