package couchbench.changes;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Every document's write as its writer learnt how it went: when it was acknowledged, or that it failed. Written by the
 * writers, read by the listeners as notifications come, and once the writers are done, by the listeners' final
 * count. Thread-safe.
 */
final class WriteLedger {

  private static final long PENDING = 0;
  private static final long FAILED = -1;

  private final AtomicLongArray[] acks;
  private final AtomicLongArray[] sent;
  // Times are kept from this origin, far enough back that every one is above PENDING.
  private final long origin = System.nanoTime() - (1L << 62);
  private final AtomicInteger writersLeft;
  private final AtomicLong finishedAt = new AtomicLong(Long.MIN_VALUE);

  /**
   * @param writers the writers
   * @param documents documents per writer
   */
  WriteLedger(int writers, int documents) {
    acks = new AtomicLongArray[writers];
    sent = new AtomicLongArray[writers];
    for (int writer = 0; writer < writers; writer++) {
      acks[writer] = new AtomicLongArray(documents);
      sent[writer] = new AtomicLongArray(documents);
    }
    writersLeft = new AtomicInteger(writers);
  }

  /**
   * @param writer the writer
   * @param seq its document
   * @param nanos when its request was sent, on System.nanoTime's clock
   */
  void sent(int writer, int seq, long nanos) {
    sent[writer].set(seq, nanos - origin);
  }

  /**
   * @param writer the writer
   * @param seq its document, sent
   * @return when its request was sent, on System.nanoTime's clock
   */
  long sentAt(int writer, int seq) {
    return sent[writer].get(seq) + origin;
  }

  /**
   * @param writer the writer
   * @param seq its document
   * @param nanos when the acknowledgement came, on System.nanoTime's clock
   */
  void acknowledged(int writer, int seq, long nanos) {
    acks[writer].set(seq, nanos - origin);
  }

  /**
   * @param writer the writer
   * @param seq its document, which the server did not acknowledge
   */
  void failed(int writer, int seq) {
    acks[writer].set(seq, FAILED);
  }

  /**
   * @param writer the writer
   * @param seq its document
   * @return whether its write was acknowledged by now
   */
  boolean isAcknowledged(int writer, int seq) {
    return acks[writer].get(seq) > PENDING;
  }

  /**
   * @param writer the writer
   * @param seq its document, acknowledged
   * @return when, on System.nanoTime's clock
   */
  long acknowledgedAt(int writer, int seq) {
    return acks[writer].get(seq) + origin;
  }

  /**
   * @param writer a writer's number, or any number
   * @param seq a document's number, or any number
   * @return whether the run wrote such a document
   */
  boolean holds(int writer, int seq) {
    return writer >= 0 && writer < acks.length && seq >= 0 && seq < acks[writer].length();
  }

  /** A writer has written all its documents; the last one marks when the writes ended. */
  void writerDone() {
    if (writersLeft.decrementAndGet() == 0) {
      finishedAt.set(System.nanoTime());
    }
  }

  /** @return whether every writer is done: what each document's write came to is known */
  boolean finished() {
    return writersLeft.get() == 0 && finishedAt.get() != Long.MIN_VALUE;
  }

  /** @return when the last writer was done, on System.nanoTime's clock; only once {@link #finished} */
  long finishedAt() {
    return finishedAt.get();
  }

  /** @return writers */
  int writers() {
    return acks.length;
  }

  /** @return documents per writer */
  int documents() {
    return acks[0].length();
  }

  /** @return writes acknowledged, over all writers */
  long acknowledgedCount() {
    return count(true);
  }

  /** @return writes that failed, over all writers */
  long failedCount() {
    return count(false);
  }

  private long count(boolean acknowledged) {
    long count = 0;
    for (AtomicLongArray writer : acks) {
      for (int seq = 0; seq < writer.length(); seq++) {
        long state = writer.get(seq);
        count += acknowledged ? (state > PENDING ? 1 : 0) : (state == FAILED ? 1 : 0);
      }
    }
    return count;
  }
}
