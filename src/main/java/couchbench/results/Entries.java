package couchbench.results;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;

/** Builds results.json's entries from a run's log and its client-timed histograms. */
final class Entries {

  private static final String WARM_UP = "warm-up";

  private Entries() {}

  /**
   * @param log what simulation.log says
   * @param clientTimes the times couchbench's client took, per request name (finer than the log's)
   * @param startEpochMillis the log's start on the run's clock, from which each entry's first start and last end are
   *     stamped
   * @return an entry per request name (log order, then any only the client saw), then one per group
   */
  static List<Results.Entry> of(RunLog log, Map<String, Outcomes> clientTimes, long startEpochMillis) {
    List<Results.Entry> entries = new ArrayList<>();
    for (String name : requestNames(log, clientTimes)) {
      entries.add(entry(name, "request", clientTimes.containsKey(name) ? Results.CLIENT_CLOCK : Results.GATLING_CLOCK,
          requestTimes(name, log, clientTimes),
          log.requests().getOrDefault(name, RequestTally.EMPTY), startEpochMillis, log.failures(name),
          HistogramTags.request(name, true), HistogramTags.request(name, false)));
    }
    log.groups().forEach((name, tally) -> entries.add(entry(name, "group", Results.GATLING_CLOCK,
        log.groupTimes().get(name), tally, startEpochMillis, Map.of(), HistogramTags.group(name, true),
        HistogramTags.group(name, false))));
    return List.copyOf(entries);
  }

  /**
   * @param log what simulation.log says
   * @param clientTimes the times couchbench's client took, per request name
   * @return each entry's OK times, by the entry's OK tag, as {@link #of} chose them
   */
  static Map<String, Histogram> okTimes(RunLog log, Map<String, Outcomes> clientTimes) {
    Map<String, Histogram> times = new LinkedHashMap<>();
    for (String name : requestNames(log, clientTimes)) {
      Outcomes outcomes = requestTimes(name, log, clientTimes);
      if (outcomes != null) {
        times.put(HistogramTags.request(name, true), outcomes.ok());
      }
    }
    log.groupTimes().forEach((name, outcomes) -> times.put(HistogramTags.group(name, true), outcomes.ok()));
    return times;
  }

  /** The log's request names in order, then any only the client saw. */
  private static Set<String> requestNames(RunLog log, Map<String, Outcomes> clientTimes) {
    Set<String> names = new LinkedHashSet<>(log.requests().keySet());
    names.addAll(clientTimes.keySet());
    return names;
  }

  /** The client's times of a request name where it took them (finer), else the log's; null for neither. */
  private static Outcomes requestTimes(String name, RunLog log, Map<String, Outcomes> clientTimes) {
    Outcomes byClient = clientTimes.get(name);
    return byClient != null ? byClient : log.requestTimes().get(name);
  }

  /**
   * @param entries a run's entries
   * @param names request names
   * @return the OK requests of those names, added up
   */
  static long okCount(List<Results.Entry> entries, List<String> names) {
    return entries.stream().filter(e -> e.kind().equals("request") && names.contains(e.name()))
        .mapToLong(Results.Entry::ok).sum();
  }

  /** @return whether a request or group name is an unmeasured warm-up, by couchbench's naming convention */
  static boolean isWarmUp(String name) {
    return name.startsWith(WARM_UP);
  }

  private static Results.Entry entry(String name, String kind, String clock, Outcomes times, RequestTally tally,
      long startEpochMillis, Map<String, Long> failures, String okTag, String koTag) {
    long ok = times == null ? 0 : times.ok().getTotalCount();
    long ko = times == null ? 0 : times.ko().getTotalCount();
    boolean seen = tally.ok() + tally.ko() > 0;
    return new Results.Entry(name, kind, clock, isWarmUp(name), ok + ko, ok, ko, new LinkedHashMap<>(failures),
        rate(ok + ko, tally.spanMillis()), latency(times == null ? Outcomes.newCompact() : times.ok(), clock), okTag,
        koTag, seen ? Instant.ofEpochMilli(startEpochMillis + tally.firstStartMillis()).toString() : null,
        seen ? Instant.ofEpochMilli(startEpochMillis + tally.lastEndMillis()).toString() : null);
  }

  /**
   * @param count requests
   * @param spanMillis from the first one's start to the last one's end
   * @return requests per second over that span (a span under a millisecond counts as one)
   */
  static double rate(long count, long spanMillis) {
    return round(count / (Math.max(spanMillis, 1) / 1000.0));
  }

  /** @return the histogram's figures in microseconds, to the nanosecond, of times taken by couchbench's client */
  static Results.Latency latency(Histogram nanos) {
    return latency(nanos, Results.CLIENT_CLOCK);
  }

  /**
   * @param nanos times in nanoseconds
   * @param clock who took them: Gatling's whole milliseconds come back as whole milliseconds (HdrHistogram would give
   *     the top of each value's 0.1% bucket, 6000.639 us for 6 ms)
   * @return the figures in microseconds
   */
  static Results.Latency latency(Histogram nanos, String clock) {
    if (nanos.getTotalCount() == 0) {
      return new Results.Latency("us", 0.0, 0, 0, 0, 0, 0, 0, 0);
    }
    double step = clock.equals(Results.GATLING_CLOCK) ? 1_000_000 : 1;
    return new Results.Latency("us", micros(nanos.getMinValue(), step), micros(nanos.getMean(), 1), micros(nanos.getValueAtPercentile(50), step),
        micros(nanos.getValueAtPercentile(90), step), micros(nanos.getValueAtPercentile(99), step),
        micros(nanos.getValueAtPercentile(99.9), step), micros(nanos.getValueAtPercentile(99.99), step),
        micros(nanos.getMaxValue(), step));
  }

  private static double micros(double nanos, double stepNanos) {
    return Math.round(nanos / stepNanos) * stepNanos / 1000.0;
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
