package couchbench.results;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * Sorts the times read from simulation.log into fixed intervals by when each request ended, and hands every interval
 * to the sink once no later record can still fall in it. Gatling logs a request when it ends, so the records come
 * nearly in order; an interval is handed over when a record two intervals later arrives. A record later still (never
 * seen: it would have to be logged seconds after its end) counts in the oldest interval not yet handed over, so no
 * time is lost and none counted twice.
 */
final class IntervalBuckets {

  private final long startEpochMillis;
  private final long intervalMillis;
  private final IntervalSink sink;
  private final TreeMap<Long, Map<String, Histogram>> open = new TreeMap<>();
  private long handedOverBelow;

  IntervalBuckets(long startEpochMillis, long intervalMillis, IntervalSink sink) {
    this.startEpochMillis = startEpochMillis;
    this.intervalMillis = intervalMillis;
    this.sink = sink;
  }

  /** Records one time under its tag, in the interval of endMillis (from the run's start). */
  void record(String tag, long endMillis, long nanos) {
    long interval = Math.max(endMillis / intervalMillis, handedOverBelow);
    open.computeIfAbsent(interval, i -> new HashMap<>())
        .computeIfAbsent(tag, t -> Outcomes.newCompact())
        .recordValue(Outcomes.clamp(nanos));
    while (open.firstKey() < interval - 1) {
      handOver(open.firstKey());
    }
  }

  /** Hands over every interval still open, at the end of the log. */
  void flushAll() {
    while (!open.isEmpty()) {
      handOver(open.firstKey());
    }
  }

  private void handOver(long interval) {
    long start = startEpochMillis + interval * intervalMillis;
    open.remove(interval).forEach((tag, histogram) -> sink.interval(tag, start, start + intervalMillis, histogram));
    handedOverBelow = interval + 1;
  }
}
