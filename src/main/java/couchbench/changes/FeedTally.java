package couchbench.changes;

import couchbench.feed.FeedConnections;
import couchbench.feed.FeedKind;
import couchbench.results.Histograms;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/** What the listeners of one feed saw, added up as they see it. Thread-safe: listeners run on every event loop. */
final class FeedTally {

  /** Rows counted apart from the writes delivered. */
  enum Count {
    /** A write seen again after a reconnection replayed the feed from its last seq. */
    REDELIVERED,
    /** A write seen again without a reconnection. */
    DUPLICATED,
    /** A writer's write seen after a newer one of the same writer. */
    OUT_OF_ORDER,
    /** A write seen before its writer had the server's acknowledgement. */
    BEFORE_ACK,
    /** A write of the run that the listener's database or filter excludes. */
    UNEXPECTED,
    /** A row of a document the run did not write. */
    FOREIGN
  }

  private final FeedKind kind;
  private final int listeners;
  private final FeedConnections connections = new FeedConnections();
  private final AtomicInteger attached = new AtomicInteger();
  private final LongAdder rows = new LongAdder();
  private final LongAdder delivered = new LongAdder();
  private final Map<Count, LongAdder> counts = new EnumMap<>(Count.class);
  private final LongAdder reconnects = new LongAdder();
  private final AtomicReference<String> firstReconnect = new AtomicReference<>();
  private final LongAdder expected = new LongAdder();
  private final LongAdder missed = new LongAdder();
  private final AtomicInteger missing = new AtomicInteger();
  private final Histogram fromAckMicros = new ConcurrentHistogram(3);
  private final Histogram fromSentMicros = new ConcurrentHistogram(3);

  /**
   * @param kind the feed
   * @param listeners its listeners
   */
  FeedTally(FeedKind kind, int listeners) {
    this.kind = kind;
    this.listeners = listeners;
    for (Count count : Count.values()) {
      counts.put(count, new LongAdder());
    }
  }

  FeedConnections connections() {
    return connections;
  }

  void attached() {
    attached.incrementAndGet();
  }

  /** @return whether every listener's feed is open */
  boolean allAttached() {
    return attached.get() >= listeners;
  }

  /** @return listeners whose feed opened */
  int attachedCount() {
    return attached.get();
  }

  void row() {
    rows.increment();
  }

  void count(Count count) {
    counts.get(count).increment();
  }

  /**
   * @param fromAck a write's time from its acknowledgement to a listener, nanoseconds
   * @param fromSent from when its request was sent
   */
  void delivered(long fromAck, long fromSent) {
    delivered.increment();
    fromAckMicros.recordValue(fromAck / 1000);
    fromSentMicros.recordValue(Math.max(0, fromSent) / 1000);
  }

  void reconnected(String why) {
    reconnects.increment();
    firstReconnect.compareAndSet(null, why);
  }

  /**
   * @param expectedWrites the acknowledged writes the listener should have seen
   * @param missedWrites those it did not see
   */
  void finished(long expectedWrites, long missedWrites) {
    expected.add(expectedWrites);
    missed.add(missedWrites);
    if (missedWrites > 0) {
      missing.incrementAndGet();
    }
  }

  /** @return the feed's figures, once its listeners are done */
  ChangesFigures.FeedFigures figures() {
    return new ChangesFigures.FeedFigures(kind.value(), listeners, attached.get(), connections.mostOpen(),
        connections.opened(), connections.dropped(), reconnects.sum(), firstReconnect.get(), rows.sum(),
        delivered.sum(), expected.sum(), missed.sum(), missing.get(), counts.get(Count.DUPLICATED).sum(),
        counts.get(Count.REDELIVERED).sum(), counts.get(Count.OUT_OF_ORDER).sum(),
        counts.get(Count.BEFORE_ACK).sum(), counts.get(Count.UNEXPECTED).sum(), counts.get(Count.FOREIGN).sum(),
        Histograms.encode(fromAckMicros), Histograms.encode(fromSentMicros));
  }
}
