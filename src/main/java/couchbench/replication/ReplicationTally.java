package couchbench.replication;

import couchbench.ledger.Arrival;
import couchbench.ledger.ArrivalTimes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CountDownLatch;

/**
 * What the watchers saw of the continuous replications: when each job's first copy was done, which its writer waits
 * for (the lag is then that of a replication following its source, not of one still copying), and each write's
 * arrival on its target, as the write ledger times it, also per second of the load. Thread-safe.
 */
final class ReplicationTally {

  private final List<CountDownLatch> copies = new ArrayList<>();
  private final ArrivalTimes arrivals = new ArrivalTimes();
  private final Map<Long, long[]> bySecond = new ConcurrentSkipListMap<>();
  private volatile long loadStart;

  /** @param jobs the replications */
  ReplicationTally(int jobs) {
    for (int job = 0; job < jobs; job++) {
      copies.add(new CountDownLatch(1));
    }
  }

  /** @param nanos when the load starts, on System.nanoTime's clock: the origin of the lag's seconds */
  void loadStarts(long nanos) {
    loadStart = nanos;
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

  /** @param arrival a write seen on its target for the first time */
  void replicated(Arrival arrival) {
    arrivals.add(arrival);
    // By the second of its acknowledgement (of its arrival, before it): a stretch of slow seconds is a gap, e.g. a
    // target restarting.
    long[] second = bySecond.computeIfAbsent((arrival.timedFrom() - loadStart) / 1_000_000_000L, any -> new long[2]);
    synchronized (second) {
      second[0]++;
      second[1] = Math.max(second[1], arrival.fromAckNanos() / 1000);
    }
  }

  /** @return the writes' arrivals on their targets, from the acknowledgement and from the send */
  ArrivalTimes arrivals() {
    return arrivals;
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
}
