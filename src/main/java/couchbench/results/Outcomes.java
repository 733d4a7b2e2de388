package couchbench.results;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.PackedHistogram;

/**
 * One request name's times in nanoseconds, OK and KO apart, on HdrHistogram with 3 significant digits: a
 * percentile is exact to 0.1%. Not thread-safe: {@link LatencyRecorder} records concurrently and hands copies here.
 */
public final class Outcomes {

  /** Up to an hour: anything longer is a request that timed out many times over. */
  static final long HIGHEST_NANOS = 3_600_000_000_000L;
  static final int SIGNIFICANT_DIGITS = 3;

  private final Histogram ok;
  private final Histogram ko;

  Outcomes(Histogram ok, Histogram ko) {
    this.ok = ok;
    this.ko = ko;
  }

  /** @return empty outcomes whose memory grows with the distinct values held, for a run's log read afterwards */
  static Outcomes compact() {
    return new Outcomes(newCompact(), newCompact());
  }

  static Histogram newCompact() {
    return new PackedHistogram(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
  }

  /** Records one time, clamped to the histogram's range. */
  void record(boolean passed, long nanos) {
    (passed ? ok : ko).recordValue(clamp(nanos));
  }

  static long clamp(long nanos) {
    return Math.min(Math.max(nanos, 0), HIGHEST_NANOS);
  }

  /** @return the OK requests' times, in nanoseconds; the caller must not change it */
  public Histogram ok() {
    return ok;
  }

  /** @return the failed requests' times, in nanoseconds; the caller must not change it */
  public Histogram ko() {
    return ko;
  }
}
