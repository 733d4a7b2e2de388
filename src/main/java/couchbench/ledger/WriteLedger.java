package couchbench.ledger;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every write of a run as its writer learnt how it went: when its request was sent, when it was acknowledged, or that
 * it failed; and, for a reader that sees it (a listener of _changes, a replication's target), how long after each
 * that was. Written by the writers, read by the readers as they see writes, on System.nanoTime's clock. Thread-safe.
 */
public final class WriteLedger {

  private static final long PENDING = 0;
  private static final long FAILED = -1;

  private final AtomicLongArray[] sent;
  private final AtomicLongArray[] acks;
  // Times are kept from this origin, far enough back that every one is above PENDING whatever nanoTime reads.
  private final long origin = System.nanoTime() - (1L << 62);
  private final AtomicInteger writersLeft;
  private final AtomicLong finishedAt = new AtomicLong(Long.MIN_VALUE);
  private final AtomicLong lastAcknowledged = new AtomicLong(Long.MIN_VALUE);
  private final LongAdder acknowledgedCount = new LongAdder();
  private final LongAdder failedCount = new LongAdder();

  /**
   * @param writers the writers
   * @param writes the writes of each
   */
  public WriteLedger(int writers, int writes) {
    sent = new AtomicLongArray[writers];
    acks = new AtomicLongArray[writers];
    for (int writer = 0; writer < writers; writer++) {
      sent[writer] = new AtomicLongArray(writes);
      acks[writer] = new AtomicLongArray(writes);
    }
    writersLeft = new AtomicInteger(writers);
  }

  /**
   * @param writer the writer
   * @param write its write
   * @param nanos when its request was sent, on System.nanoTime's clock
   */
  public void sent(int writer, int write, long nanos) {
    sent[writer].set(write, nanos - origin);
  }

  /**
   * Counted once: a write acknowledged again, or after it failed, changes nothing.
   *
   * @param writer the writer
   * @param write its write
   * @param nanos when the acknowledgement came, on System.nanoTime's clock
   */
  public void acknowledged(int writer, int write, long nanos) {
    if (acks[writer].compareAndSet(write, PENDING, nanos - origin)) {
      acknowledgedCount.increment();
      lastAcknowledged.accumulateAndGet(nanos, Math::max);
    }
  }

  /**
   * @param writer the writer
   * @param write its write, which the server did not acknowledge; one it did is left so
   */
  public void failed(int writer, int write) {
    if (acks[writer].compareAndSet(write, PENDING, FAILED)) {
      failedCount.increment();
    }
  }

  /**
   * @param writer the writer
   * @param write its write
   * @return whether it was acknowledged by now
   */
  public boolean isAcknowledged(int writer, int write) {
    return acks[writer].get(write) > PENDING;
  }

  /**
   * @param writer the writer
   * @param write its write, acknowledged
   * @return when, on System.nanoTime's clock
   */
  public long acknowledgedAt(int writer, int write) {
    return acks[writer].get(write) + origin;
  }

  /**
   * @param writer the writer
   * @param write its write, sent
   * @return when its request was sent, on System.nanoTime's clock
   */
  public long sentAt(int writer, int write) {
    return sent[writer].get(write) + origin;
  }

  /**
   * A reader saw a write: how long after its send and its acknowledgement. One seen before its writer had the
   * acknowledgement (a server tells its feeds as it commits, before the reply reaches the writer) is timed as 0 from
   * it, and said to be so: the time from the send has no such floor.
   *
   * @param writer the writer
   * @param write its write, sent
   * @param nanos when the reader saw it, on System.nanoTime's clock
   * @return its times
   */
  public Arrival arrived(int writer, int write, long nanos) {
    long fromSent = nanos - sentAt(writer, write);
    if (!isAcknowledged(writer, write) || acknowledgedAt(writer, write) > nanos) {
      return new Arrival(fromSent, 0, true, nanos);
    }
    long acknowledged = acknowledgedAt(writer, write);
    return new Arrival(fromSent, nanos - acknowledged, false, acknowledged);
  }

  /**
   * @param writer a writer's number, or any number
   * @param write a write's number, or any number
   * @return whether the run has such a write
   */
  public boolean holds(int writer, int write) {
    return writer >= 0 && writer < acks.length && write >= 0 && write < acks[writer].length();
  }

  /** A writer is done with all its writes; the last one marks when the writes ended. */
  public void writerDone() {
    if (writersLeft.decrementAndGet() == 0) {
      finishedAt.set(System.nanoTime());
    }
  }

  /** @return whether every writer is done: what each write came to is known */
  public boolean finished() {
    return writersLeft.get() == 0 && finishedAt.get() != Long.MIN_VALUE;
  }

  /** @return when the last writer was done, on System.nanoTime's clock; only once {@link #finished} */
  public long finishedAt() {
    return finishedAt.get();
  }

  /** @return when the last acknowledgement came, on System.nanoTime's clock; only once one came */
  public long lastAcknowledged() {
    return lastAcknowledged.get();
  }

  /** @return the writers */
  public int writers() {
    return acks.length;
  }

  /** @return the writes of each writer */
  public int writes() {
    return acks[0].length();
  }

  /** @return the writes acknowledged, over all writers */
  public long acknowledgedCount() {
    return acknowledgedCount.sum();
  }

  /** @return the writes that failed, over all writers */
  public long failedCount() {
    return failedCount.sum();
  }
}
