package couchbench.results;

import couchbench.memcache.MemcacheTimings;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * The memcache requests' times as couchbench's client takes them, with the nanosecond clock, per request name, OK
 * and KO apart, for percentiles finer than Gatling's whole milliseconds. Each recording thread (an event loop) has
 * recorders of its own, so that recording never contends across cores. Every second {@link #takeSecond} swaps out
 * those that recorded anything, adds up each name's second once (its threads' intervals into the first's) and hands
 * it to the run's seconds; every interval {@link #takeInterval} hands the seconds taken since the last to the
 * histogram log, and adds them to the totals.
 * Histograms grow to the highest time recorded, and a thread or name that recorded nothing in a second costs no add:
 * the tick's work follows the load, not the names and threads that ever recorded.
 */
public final class LatencyRecorder implements MemcacheTimings {

  private final List<Map<String, Recorders>> byThread = new CopyOnWriteArrayList<>();
  private final ThreadLocal<Map<String, Recorders>> mine = ThreadLocal.withInitial(() -> {
    Map<String, Recorders> recorders = new ConcurrentHashMap<>();
    byThread.add(recorders);
    return recorders;
  });
  private final Set<String> names = ConcurrentHashMap.newKeySet();
  private final Map<String, Histogram> okSoFar = new LinkedHashMap<>();
  private final Map<String, Histogram> koSoFar = new LinkedHashMap<>();
  private final Map<String, Outcomes> totals = new LinkedHashMap<>();
  private long requests;
  private long failed;

  @Override
  public void record(String requestName, boolean ok, long nanos) {
    Map<String, Recorders> recorders = mine.get();
    Recorders named = recorders.get(requestName);
    if (named == null) {
      named = new Recorders();
      recorders.put(requestName, named);
      names.add(requestName);
    }
    (ok ? named.ok : named.ko).record(Outcomes.clamp(nanos));
  }

  /**
   * Takes what was recorded since the last call: each request name's OK and KO times, summed over the threads that
   * recorded them, go to the run's seconds and are kept for the next {@link #takeInterval}. Names without a record in
   * the second hand nothing over.
   *
   * @param startEpochMillis the second's start on the run's clock
   * @param endEpochMillis its end (now)
   * @param seconds the run's seconds
   * @param live where each name's second goes too, for live metrics (a sink that keeps nothing without them)
   */
  public synchronized void takeSecond(long startEpochMillis, long endEpochMillis, LoadSeconds seconds,
      LiveFigures live) {
    Map<String, Histogram> ok = new LinkedHashMap<>();
    Map<String, Histogram> ko = new LinkedHashMap<>();
    for (Map<String, Recorders> thread : byThread) {
      thread.forEach((name, recorders) -> {
        recorders.ok.takeInto(ok, name);
        recorders.ko.takeInto(ko, name);
      });
    }
    ok.forEach((name, times) -> {
      seconds.add(name, startEpochMillis, endEpochMillis, true, times);
      live.clientSecond(name, true, times);
      okSoFar.computeIfAbsent(name, any -> new Histogram(Outcomes.SIGNIFICANT_DIGITS)).add(times);
      requests += times.getTotalCount();
    });
    ko.forEach((name, times) -> {
      seconds.add(name, startEpochMillis, endEpochMillis, false, times);
      live.clientSecond(name, false, times);
      koSoFar.computeIfAbsent(name, any -> new Histogram(Outcomes.SIGNIFICANT_DIGITS)).add(times);
      requests += times.getTotalCount();
      failed += times.getTotalCount();
    });
  }

  /**
   * Hands each request name's times of the seconds taken since the last call to the sink, tagged, and adds them to the
   * totals; a name and outcome without any in them hands nothing over.
   *
   * @param startEpochMillis the interval's start on the run's clock
   * @param endEpochMillis its end (now)
   * @param sink where each request name's interval histograms go
   */
  public synchronized void takeInterval(long startEpochMillis, long endEpochMillis, IntervalSink sink) {
    okSoFar.forEach((name, times) -> {
      sink.interval(HistogramTags.request(name, true), startEpochMillis, endEpochMillis, times);
      totals.computeIfAbsent(name, n -> Outcomes.compact()).ok().add(times);
    });
    koSoFar.forEach((name, times) -> {
      sink.interval(HistogramTags.request(name, false), startEpochMillis, endEpochMillis, times);
      totals.computeIfAbsent(name, n -> Outcomes.compact()).ko().add(times);
    });
    okSoFar.clear();
    koSoFar.clear();
  }

  /**
   * @param requestName a request's name
   * @return whether this recorder times it (from its first record on)
   */
  public boolean times(String requestName) {
    return names.contains(requestName);
  }

  /** @return the requests of every second taken so far, and the KO ones among them: the console's progress */
  public synchronized Progress.Counts counts() {
    return new Progress.Counts(requests, failed);
  }

  /** @return each request name's times over every interval taken so far, in nanoseconds; copies */
  public synchronized Map<String, Outcomes> totals() {
    Map<String, Outcomes> copies = new LinkedHashMap<>();
    totals.forEach((name, outcomes) -> copies.put(name, new Outcomes(outcomes.ok().copy(), outcomes.ko().copy())));
    return copies;
  }

  /** One thread's recorders of one request name. */
  private static final class Recorders {
    final Recorded ok = new Recorded();
    final Recorded ko = new Recorded();
  }

  /**
   * One thread's recorder of one request name and outcome, with a count of what it recorded, so that the taker swaps
   * out only a recorder that recorded something: a swap clears a whole histogram.
   */
  private static final class Recorded {
    private static final VarHandle COUNT;

    static {
      try {
        COUNT = MethodHandles.lookup().findVarHandle(Recorded.class, "count", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    // Growing to the highest time recorded, not sized for an hour from the start.
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(Outcomes.SIGNIFICANT_DIGITS);
    @SuppressWarnings("unused") // written and read through COUNT
    private long count;
    private long taken;
    private Histogram interval;

    // By its recording thread alone: the count is published after the time, so that a count seen is a time recorded.
    void record(long nanos) {
      recorder.recordValue(nanos);
      COUNT.setRelease(this, (long) COUNT.getOpaque(this) + 1);
    }

    // By the taker: what was recorded since it last took, added to the name's sum of the second; nothing when nothing.
    void takeInto(Map<String, Histogram> sums, String name) {
      long recorded = (long) COUNT.getAcquire(this);
      if (recorded == taken) {
        return;
      }
      taken = recorded;
      interval = recorder.getIntervalHistogram(interval);
      if (interval.getTotalCount() == 0) {
        return; // taken already, with the second before
      }
      // The first thread's interval is the second's sum, the others added to it: it is only cleared, at its next take,
      // once the second is handed over.
      Histogram sum = sums.putIfAbsent(name, interval);
      if (sum != null) {
        sum.add(interval);
      }
    }
  }
}
