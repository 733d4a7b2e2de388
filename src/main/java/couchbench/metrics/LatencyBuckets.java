package couchbench.metrics;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.DoubleAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One request name's and outcome's times so far, as a Prometheus classic histogram: a count per bucket (not
 * cumulative) and the sum, safe to add to from Gatling's threads while a scrape reads it. The bounds run 1-2-5 from
 * 100 µs to a minute, so that a percentile read from them with PromQL lies within one bucket of the page's.
 */
final class LatencyBuckets {

  /** Upper bounds, in seconds; the last bucket, +Inf, is not listed. */
  static final double[] BOUNDS = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,
      2, 5, 10, 20, 60};

  private static final long[] BOUND_NANOS = new long[BOUNDS.length];

  static {
    for (int i = 0; i < BOUNDS.length; i++) {
      BOUND_NANOS[i] = Math.round(BOUNDS[i] * 1e9);
    }
  }

  private final AtomicLongArray counts = new AtomicLongArray(BOUNDS.length + 1);
  private final DoubleAdder seconds = new DoubleAdder();

  /** @param nanos one request's time */
  void add(long nanos) {
    counts.incrementAndGet(bucket(nanos));
    seconds.add(nanos / 1e9);
  }

  /** @param nanos a second's times, in nanoseconds: one pass over the values it holds, each as {@link #add(long)} */
  void add(Histogram nanos) {
    double sum = 0;
    for (HistogramIterationValue value : nanos.recordedValues()) {
      // A recorded value is known to the histogram's 3 digits: its range's lowest value places it.
      counts.addAndGet(bucket(nanos.lowestEquivalentValue(value.getValueIteratedTo())),
          value.getCountAtValueIteratedTo());
      sum += (double) nanos.medianEquivalentValue(value.getValueIteratedTo()) * value.getCountAtValueIteratedTo();
    }
    seconds.add(sum / 1e9);
  }

  private static int bucket(long nanos) {
    int bucket = 0;
    while (bucket < BOUND_NANOS.length && nanos > BOUND_NANOS[bucket]) {
      bucket++;
    }
    return bucket;
  }

  /** @return each bucket's count, +Inf's last; read while others add, each count is one it had */
  long[] counts() {
    long[] copy = new long[counts.length()];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = counts.get(i);
    }
    return copy;
  }

  /** @return the times' sum, in seconds */
  double seconds() {
    return seconds.sum();
  }
}
