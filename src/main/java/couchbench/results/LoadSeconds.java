package couchbench.results;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The load second by second on the run's clock ({@code RunClock}), one series per {@link SeriesKind}: the entries
 * that ended in each second, the failed ones, and the OK ones' times. Gatling's entries come from simulation.log, the
 * memcache client's from its recorder, taken every second; groups are left out, as their requests are counted
 * already. A name is a {@link SeriesKind#REQUEST} unless {@link #apart} says otherwise.
 */
public final class LoadSeconds {

  /**
   * One second of the load.
   *
   * @param epochSecond the second, from the epoch
   * @param ok the entries that ended OK in it
   * @param ko those that failed
   * @param okTimes the OK ones' times, in nanoseconds
   */
  public record Second(long epochSecond, long ok, long ko, Histogram okTimes) {}

  /** One kind's seconds. */
  private static final class Series {
    final TreeMap<Long, Histogram> okTimes = new TreeMap<>();
    final TreeMap<Long, Long> failed = new TreeMap<>();
  }

  private final Map<String, SeriesKind> kinds = new HashMap<>();
  private final Map<SeriesKind, Series> series = new EnumMap<>(SeriesKind.class);

  /**
   * Counts request names apart from the load's requests; call before any of them is recorded.
   *
   * @param kind what they are
   * @param names the request names, as Gatling's report and results.json name them
   */
  synchronized void apart(SeriesKind kind, Collection<String> names) {
    names.forEach(name -> kinds.put(name, kind));
  }

  private Series of(String name) {
    return series.computeIfAbsent(kinds.getOrDefault(name, SeriesKind.REQUEST), kind -> new Series());
  }

  /**
   * One entry.
   *
   * @param name its request name
   * @param endEpochMillis when it ended
   * @param ok whether it passed
   * @param nanos its time
   */
  synchronized void record(String name, long endEpochMillis, boolean ok, long nanos) {
    long second = Math.floorDiv(endEpochMillis, 1000);
    Series kind = of(name);
    if (ok) {
      kind.okTimes.computeIfAbsent(second, any -> Outcomes.newCompact()).recordValue(Outcomes.clamp(nanos));
    } else {
      kind.failed.merge(second, 1L, Long::sum);
    }
  }

  /**
   * The entries of one name that ended in one second, as the memcache client's recorder hands them over: each tick is
   * about a second on the run clock's whole seconds (the first and the last shorter), counted in the second that
   * holds its middle, so that a tick a little early or late still lands in its own second.
   *
   * @param name their request name
   * @param startEpochMillis the tick's start
   * @param endEpochMillis its end
   * @param ok whether they passed
   * @param times their times, in nanoseconds
   */
  synchronized void add(String name, long startEpochMillis, long endEpochMillis, boolean ok, Histogram times) {
    if (times.getTotalCount() == 0) {
      return;
    }
    long second = Math.floorDiv((startEpochMillis + endEpochMillis) / 2, 1000);
    Series kind = of(name);
    if (ok) {
      kind.okTimes.computeIfAbsent(second, any -> Outcomes.newCompact()).add(times);
    } else {
      kind.failed.merge(second, times.getTotalCount(), Long::sum);
    }
  }

  /** @return the kinds with an entry so far, in {@link SeriesKind}'s order */
  public synchronized List<SeriesKind> kinds() {
    return List.copyOf(series.keySet());
  }

  /**
   * @param kind a kind of entries
   * @return every second from its first to its last entry, those without any included, in order; none when the run
   *     had none of that kind
   */
  public synchronized List<Second> seconds(SeriesKind kind) {
    List<Second> seconds = new ArrayList<>();
    Series of = series.get(kind);
    if (of == null) {
      return seconds;
    }
    long first = Math.min(of.okTimes.isEmpty() ? Long.MAX_VALUE : of.okTimes.firstKey(),
        of.failed.isEmpty() ? Long.MAX_VALUE : of.failed.firstKey());
    long last = Math.max(of.okTimes.isEmpty() ? Long.MIN_VALUE : of.okTimes.lastKey(),
        of.failed.isEmpty() ? Long.MIN_VALUE : of.failed.lastKey());
    for (long second = first; second <= last; second++) {
      Histogram times = of.okTimes.getOrDefault(second, Outcomes.newCompact());
      seconds.add(new Second(second, times.getTotalCount(), of.failed.getOrDefault(second, 0L), times));
    }
    return seconds;
  }
}
