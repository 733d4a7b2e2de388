package couchbench.results;

import couchbench.memcache.MemcacheTimings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The memcache requests' times as couchbench's client takes them, with the nanosecond clock, per request name, OK
 * and KO apart, for percentiles finer than Gatling's whole milliseconds. Each recording thread (an event loop) has
 * recorders of its own, so that recording never contends across cores; {@link #takeInterval} swaps them all out,
 * adds up each name's interval, hands it to a sink and adds it to the run's totals.
 */
public final class LatencyRecorder implements MemcacheTimings {

  private final List<Map<String, Recorders>> byThread = new CopyOnWriteArrayList<>();
  private final ThreadLocal<Map<String, Recorders>> mine = ThreadLocal.withInitial(() -> {
    Map<String, Recorders> recorders = new ConcurrentHashMap<>();
    byThread.add(recorders);
    return recorders;
  });
  private final Map<String, Outcomes> totals = new LinkedHashMap<>();

  @Override
  public void record(String requestName, boolean ok, long nanos) {
    Map<String, Recorders> recorders = mine.get();
    Recorders named = recorders.get(requestName);
    if (named == null) {
      named = new Recorders();
      recorders.put(requestName, named);
    }
    (ok ? named.ok : named.ko).recordValue(Outcomes.clamp(nanos));
  }

  /**
   * Takes what was recorded since the last call, adds it to the totals and hands it to the sink, tagged.
   *
   * @param startEpochMillis the interval's start
   * @param endEpochMillis its end (now)
   * @param sink where each request name's interval histograms go
   */
  public synchronized void takeInterval(long startEpochMillis, long endEpochMillis, IntervalSink sink) {
    Map<String, Outcomes> interval = new LinkedHashMap<>();
    for (Map<String, Recorders> thread : byThread) {
      thread.forEach((name, recorders) -> {
        Outcomes sum = interval.computeIfAbsent(name, n -> Outcomes.compact());
        recorders.okInterval = recorders.ok.getIntervalHistogram(recorders.okInterval);
        recorders.koInterval = recorders.ko.getIntervalHistogram(recorders.koInterval);
        sum.ok().add(recorders.okInterval);
        sum.ko().add(recorders.koInterval);
      });
    }
    interval.forEach((name, sum) -> {
      Outcomes total = totals.computeIfAbsent(name, n -> Outcomes.compact());
      total.ok().add(sum.ok());
      total.ko().add(sum.ko());
      sink.interval(HistogramTags.request(name, true), startEpochMillis, endEpochMillis, sum.ok());
      sink.interval(HistogramTags.request(name, false), startEpochMillis, endEpochMillis, sum.ko());
    });
  }

  /** @return the requests of every interval taken so far, and the KO ones among them: the console's progress */
  public synchronized Progress.Counts counts() {
    long requests = 0;
    long failed = 0;
    for (Outcomes outcomes : totals.values()) {
      requests += outcomes.ok().getTotalCount() + outcomes.ko().getTotalCount();
      failed += outcomes.ko().getTotalCount();
    }
    return new Progress.Counts(requests, failed);
  }

  /** @return each request name's times over every interval taken so far, in nanoseconds; copies */
  public synchronized Map<String, Outcomes> totals() {
    Map<String, Outcomes> copies = new LinkedHashMap<>();
    totals.forEach((name, outcomes) -> copies.put(name, new Outcomes(outcomes.ok().copy(), outcomes.ko().copy())));
    return copies;
  }

  /** One thread's recorders of one request name, and the interval histograms they hand back and get again. */
  private static final class Recorders {
    final SingleWriterRecorder ok = new SingleWriterRecorder(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    final SingleWriterRecorder ko = new SingleWriterRecorder(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    Histogram okInterval;
    Histogram koInterval;
  }
}
