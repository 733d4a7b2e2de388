package couchbench.cacheaside;

import couchbench.startup.RunClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The reads second by second, on the run's clock: hits and misses with their whole times, the misses' CouchDB reads
 * and the gets that failed (the cache down), each counted in the second it was known; the series the warm-up after a
 * cold cache is read from ({@link WarmUp}) and the page's charts are drawn from.
 */
final class ReadSeconds {

  // One second's counts; a read's time in microseconds, from its get's start to its end.
  private static final class Tally {
    final LongAdder hits = new LongAdder();
    final LongAdder misses = new LongAdder();
    final LongAdder couchReads = new LongAdder();
    final LongAdder cacheDown = new LongAdder();
    final LongAdder staleReads = new LongAdder();
    final LongAdder staleOnPurpose = new LongAdder();
    final Histogram hitMicros = new ConcurrentHistogram(3);
    final Histogram missMicros = new ConcurrentHistogram(3);
  }

  private final Map<Long, Tally> bySecond = new ConcurrentSkipListMap<>();

  /**
   * @param getStartNanos the get's start, on System.nanoTime's clock
   */
  void hit(long getStartNanos) {
    Tally now = now();
    now.hits.increment();
    now.hitMicros.recordValue(micros(getStartNanos));
  }

  /**
   * A miss, once its CouchDB read and its set are done.
   *
   * @param getStartNanos the get's start, on System.nanoTime's clock
   */
  void miss(long getStartNanos) {
    Tally now = now();
    now.misses.increment();
    now.missMicros.recordValue(micros(getStartNanos));
  }

  /** A miss's read of CouchDB, answered 200. */
  void couchRead() {
    now().couchReads.increment();
  }

  /** A read whose get failed: the cache did not answer (restarting), so the read found nothing. */
  void cacheDown() {
    now().cacheDown.increment();
  }

  /**
   * A read that returned a version older than one acknowledged before its get began ({@link StaleReads}).
   *
   * @param onPurpose whether memcached served it flagged stale (X) while another user recached it (-Dprotect=meta),
   *     rather than by the race of a reader's set with a writer's invalidation
   */
  void staleRead(boolean onPurpose) {
    Tally now = now();
    now.staleReads.increment();
    if (onPurpose) {
      now.staleOnPurpose.increment();
    }
  }

  private Tally now() {
    return bySecond.computeIfAbsent(Math.floorDiv(RunClock.millis(), 1000), second -> new Tally());
  }

  private static long micros(long startNanos) {
    return Math.max(0, (System.nanoTime() - startNanos) / 1000);
  }

  /**
   * @param loadStartMillis the load's start on the run's clock: second 0 is the second it started in, as seconds.csv's
   * @return one entry a second from second 0 to the last second with a read, a second without any read at 0
   */
  List<CacheAsideFigures.ReadSecond> seconds(long loadStartMillis) {
    long first = Math.floorDiv(loadStartMillis, 1000);
    long last = bySecond.keySet().stream().mapToLong(Long::longValue).max().orElse(first - 1);
    List<CacheAsideFigures.ReadSecond> seconds = new ArrayList<>();
    for (long second = first; second <= last; second++) {
      Tally tally = bySecond.getOrDefault(second, new Tally());
      seconds.add(new CacheAsideFigures.ReadSecond(second - first, tally.hits.sum(), tally.misses.sum(),
          tally.couchReads.sum(), tally.cacheDown.sum(), tally.staleReads.sum(), tally.staleOnPurpose.sum(),
          millis(tally.hitMicros, 50), millis(tally.hitMicros, 99), millis(tally.missMicros, 50),
          millis(tally.missMicros, 99)));
    }
    return seconds;
  }

  // NaN for a second without such a read: a gap in its line.
  private static double millis(Histogram micros, double percentile) {
    return micros.getTotalCount() == 0 ? Double.NaN
        : Math.round(micros.getValueAtPercentile(percentile) / 10.0) / 100.0;
  }
}
