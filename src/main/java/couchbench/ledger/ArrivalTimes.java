package couchbench.ledger;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Writes' arrivals at their readers, added up: the time from each one's acknowledgement and from its send, and those
 * that came before their acknowledgement, counted apart. Thread-safe: readers run on every event loop.
 */
public final class ArrivalTimes {

  private final Histogram fromAckMicros = new ConcurrentHistogram(3);
  private final Histogram fromSentMicros = new ConcurrentHistogram(3);
  private final LongAdder beforeAck = new LongAdder();

  /** @param arrival a write seen by a reader */
  public void add(Arrival arrival) {
    fromAckMicros.recordValue(arrival.fromAckNanos() / 1000);
    fromSentMicros.recordValue(Math.max(0, arrival.fromSentNanos()) / 1000);
    if (arrival.beforeAck()) {
      beforeAck.increment();
    }
  }

  /** @return the arrivals added */
  public long count() {
    return fromSentMicros.getTotalCount();
  }

  /** @return those that came before their acknowledgement (timed as 0 from it) */
  public long beforeAck() {
    return beforeAck.sum();
  }

  /** @return each arrival's time from its write's acknowledgement, µs; 0 for one before it */
  public Histogram fromAckMicros() {
    return fromAckMicros;
  }

  /** @return each arrival's time from its write's send, µs */
  public Histogram fromSentMicros() {
    return fromSentMicros;
  }
}
