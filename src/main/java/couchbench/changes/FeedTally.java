package couchbench.changes;

import couchbench.feed.FeedConnections;
import couchbench.feed.FeedKind;
import couchbench.ledger.Arrival;
import couchbench.ledger.ArrivalTimes;
import couchbench.results.Histograms;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

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
  private final Map<Count, LongAdder> counts = new EnumMap<>(Count.class);
  private final LongAdder reconnects = new LongAdder();
  private final AtomicReference<String> firstReconnect = new AtomicReference<>();
  private final LongAdder expected = new LongAdder();
  private final LongAdder missed = new LongAdder();
  private final AtomicInteger missing = new AtomicInteger();
  private final ArrivalTimes delivered = new ArrivalTimes();

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

  /** @param arrival a write seen for the first time by a listener that should see it, as the ledger times it */
  void delivered(Arrival arrival) {
    delivered.add(arrival);
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
        delivered.count(), expected.sum(), missed.sum(), missing.get(), counts.get(Count.DUPLICATED).sum(),
        counts.get(Count.REDELIVERED).sum(), counts.get(Count.OUT_OF_ORDER).sum(),
        delivered.beforeAck(), counts.get(Count.UNEXPECTED).sum(), counts.get(Count.FOREIGN).sum(),
        Histograms.encode(delivered.fromAckMicros()), Histograms.encode(delivered.fromSentMicros()));
  }
}
