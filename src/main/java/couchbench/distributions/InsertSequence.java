package couchbench.distributions;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The key numbers of a run's inserts, handed out in order and acknowledged in any order: YCSB's
 * {@code AcknowledgedCounterGenerator} (0.17.0). The key choosers choose only up to {@link #lastAcknowledged()}, so
 * that no read looks for a record whose insert has not been stored yet. One per run, shared by its users: thread-safe.
 *
 * <p>Acknowledge every number handed out, whether its insert was stored or failed (YCSB acknowledges in a finally):
 * a number never acknowledged holds lastAcknowledged back for good. As in YCSB, only the 2^20 numbers from the oldest
 * one not acknowledged on can be acknowledged.
 */
public final class InsertSequence {

  /** YCSB's window of pending acknowledgements. */
  static final int WINDOW = 1 << 20;

  private final AtomicLong next;
  /** Whether each number in the window after lastAcknowledged is acknowledged, at number & (WINDOW - 1). */
  private final boolean[] acknowledged = new boolean[WINDOW];
  private volatile long lastAcknowledged;

  /**
   * @param firstNew the first key number to hand out, e.g. the record count: the load inserted 0 to firstNew - 1
   */
  public InsertSequence(long firstNew) {
    if (firstNew < 0) {
      throw new IllegalArgumentException("firstNew: " + firstNew + " (expected: >= 0)");
    }
    next = new AtomicLong(firstNew);
    lastAcknowledged = firstNew - 1;
  }

  /** @return the next new key number; pass it to {@link #acknowledge} once its insert is done */
  public long next() {
    return next.getAndIncrement();
  }

  /**
   * @param keyNumber a number {@link #next()} handed out, whose insert is done
   * @throws IllegalArgumentException when the number was not handed out or was acknowledged already
   * @throws IllegalStateException when it is 2^20 or more after the oldest number not acknowledged
   */
  public synchronized void acknowledge(long keyNumber) {
    long last = lastAcknowledged;
    int slot = slot(keyNumber);
    if (keyNumber <= last || keyNumber >= next.get() || keyNumber - last <= WINDOW && acknowledged[slot]) {
      throw new IllegalArgumentException("key number " + keyNumber + ": not handed out or acknowledged already"
          + " (handed out up to " + (next.get() - 1) + ", all acknowledged up to " + last + ")");
    }
    if (keyNumber - last > WINDOW) {
      throw new IllegalStateException("key number " + keyNumber + ": outside the window of " + WINDOW
          + " numbers from key number " + (last + 1) + ", the oldest not acknowledged");
    }
    acknowledged[slot] = true;
    while (acknowledged[slot(last + 1)]) {
      acknowledged[slot(last + 1)] = false;
      last++;
    }
    lastAcknowledged = last;
  }

  /** @return the highest key number below which (and at which) every insert is acknowledged: YCSB's lastValue */
  public long lastAcknowledged() {
    return lastAcknowledged;
  }

  private static int slot(long keyNumber) {
    return (int) (keyNumber & (WINDOW - 1));
  }
}
