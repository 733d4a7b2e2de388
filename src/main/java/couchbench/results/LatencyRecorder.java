package couchbench.results;

import couchbench.memcache.MemcacheTimings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The memcache requests' times as couchbench's client takes them, with the nanosecond clock, per request name, OK
 * and KO apart, for percentiles finer than Gatling's whole milliseconds. Recorded from every event loop at once into
 * HdrHistogram Recorders (wait-free for the recording threads); {@link #takeInterval} swaps them out, hands each
 * interval to a sink and adds it to the run's totals.
 */
public final class LatencyRecorder implements MemcacheTimings {

  private final Map<String, Recorders> byName = new ConcurrentHashMap<>();
  private final Map<String, Outcomes> totals = new LinkedHashMap<>();

  @Override
  public void record(String requestName, boolean ok, long nanos) {
    Recorders recorders = byName.get(requestName);
    if (recorders == null) {
      recorders = byName.computeIfAbsent(requestName, name -> new Recorders());
    }
    (ok ? recorders.ok : recorders.ko).recordValue(Outcomes.clamp(nanos));
  }

  /**
   * Takes what was recorded since the last call, adds it to the totals and hands it to the sink, tagged.
   *
   * @param startEpochMillis the interval's start
   * @param endEpochMillis its end (now)
   * @param sink where each request name's interval histograms go
   */
  public synchronized void takeInterval(long startEpochMillis, long endEpochMillis, IntervalSink sink) {
    byName.forEach((name, recorders) -> {
      Outcomes total = totals.computeIfAbsent(name, n -> Outcomes.compact());
      recorders.okInterval = recorders.ok.getIntervalHistogram(recorders.okInterval);
      recorders.koInterval = recorders.ko.getIntervalHistogram(recorders.koInterval);
      total.ok().add(recorders.okInterval);
      total.ko().add(recorders.koInterval);
      sink.interval(HistogramTags.request(name, true), startEpochMillis, endEpochMillis, recorders.okInterval);
      sink.interval(HistogramTags.request(name, false), startEpochMillis, endEpochMillis, recorders.koInterval);
    });
  }

  /** @return each request name's times over every interval taken so far, in nanoseconds; copies */
  public synchronized Map<String, Outcomes> totals() {
    Map<String, Outcomes> copies = new LinkedHashMap<>();
    totals.forEach((name, outcomes) -> copies.put(name, new Outcomes(outcomes.ok().copy(), outcomes.ko().copy())));
    return copies;
  }

  /** One request name's recorders, and the interval histograms they hand back and get again (no garbage). */
  private static final class Recorders {
    final Recorder ok = new Recorder(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    final Recorder ko = new Recorder(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    Histogram okInterval;
    Histogram koInterval;
  }
}
