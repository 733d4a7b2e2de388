package couchbench.results;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The load second by second on the wall clock: the requests that ended in each second, the failed ones, and the OK
 * ones' times. Gatling's requests come from simulation.log, the memcache client's from its recorder, taken every
 * second; groups are left out, as their requests are counted already.
 */
public final class LoadSeconds {

  /**
   * One second of the load.
   *
   * @param epochSecond the second, from the epoch
   * @param ok the requests that ended OK in it
   * @param ko those that failed
   * @param okTimes the OK ones' times, in nanoseconds
   */
  public record Second(long epochSecond, long ok, long ko, Histogram okTimes) {}

  private final TreeMap<Long, Histogram> okTimes = new TreeMap<>();
  private final TreeMap<Long, Long> failed = new TreeMap<>();

  /**
   * One request.
   *
   * @param endEpochMillis when it ended
   * @param ok whether it passed
   * @param nanos its time
   */
  synchronized void record(long endEpochMillis, boolean ok, long nanos) {
    long second = Math.floorDiv(endEpochMillis, 1000);
    if (ok) {
      okTimes.computeIfAbsent(second, any -> Outcomes.newCompact()).recordValue(Outcomes.clamp(nanos));
    } else {
      failed.merge(second, 1L, Long::sum);
    }
  }

  /**
   * The requests of one name that ended in one second, as the memcache client's recorder hands them over: each tick is
   * about a second on the wall clock's whole seconds (the first and the last shorter), counted in the second that
   * holds its middle, so that a tick a little early or late still lands in its own second.
   *
   * @param startEpochMillis the tick's start
   * @param endEpochMillis its end
   * @param ok whether they passed
   * @param times their times, in nanoseconds
   */
  synchronized void add(long startEpochMillis, long endEpochMillis, boolean ok, Histogram times) {
    if (times.getTotalCount() == 0) {
      return;
    }
    long second = Math.floorDiv((startEpochMillis + endEpochMillis) / 2, 1000);
    if (ok) {
      okTimes.computeIfAbsent(second, any -> Outcomes.newCompact()).add(times);
    } else {
      failed.merge(second, times.getTotalCount(), Long::sum);
    }
  }

  /** @return every second from the first to the last with a request, those without any included, in order */
  public synchronized List<Second> seconds() {
    List<Second> seconds = new ArrayList<>();
    if (okTimes.isEmpty() && failed.isEmpty()) {
      return seconds;
    }
    long first = Math.min(okTimes.isEmpty() ? Long.MAX_VALUE : okTimes.firstKey(),
        failed.isEmpty() ? Long.MAX_VALUE : failed.firstKey());
    long last = Math.max(okTimes.isEmpty() ? Long.MIN_VALUE : okTimes.lastKey(),
        failed.isEmpty() ? Long.MIN_VALUE : failed.lastKey());
    for (long second = first; second <= last; second++) {
      Histogram times = okTimes.getOrDefault(second, Outcomes.newCompact());
      seconds.add(new Second(second, times.getTotalCount(), failed.getOrDefault(second, 0L), times));
    }
    return seconds;
  }
}
