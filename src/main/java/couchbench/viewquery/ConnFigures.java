package couchbench.viewquery;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the connections of one ViewQuery round did, as results.json keeps it: the counts, and every sample, so that
 * httperf's figures can be computed again from the file, for one injector or for several merged. Times are absolute
 * (epoch milliseconds), so that the reply-rate windows of several injectors line up on one clock. Every sample is
 * kept sorted, shortest first, from construction on: the figures read them in order, and a merged run's arrive
 * injector after injector.
 *
 * @param connections connections opened
 * @param requests requests sent
 * @param unanswered requests that got no reply (refused, reset, timed out)
 * @param failed requests that failed, Gatling's KO count
 * @param statusClasses replies by status class: index 1 for 1xx ... 5 for 5xx, 0 for anything else
 * @param mostOpen most connections open at once; for merged injectors the sum of their maxima, an upper bound
 * @param cpuSeconds CPU time of the Gatling JVM, user and system, from the first connection's start to the last
 *     one's end; for merged injectors the sum of their JVMs'
 * @param firstStartMillis the first connection's start, epoch milliseconds; null without any connection
 * @param lastEndMillis the last connection's end, epoch milliseconds; null before any ended
 * @param connectionMicros each connection's time, first action to last, in microseconds
 * @param replyMicros each reply's time, from just before the request is sent to the whole reply, in microseconds
 * @param replyBytes each reply body's length
 * @param replyAtMillis when each reply came, epoch milliseconds
 */
public record ConnFigures(long connections, long requests, long unanswered, long failed, long[] statusClasses,
    int mostOpen, double cpuSeconds, Long firstStartMillis, Long lastEndMillis, long[] connectionMicros,
    long[] replyMicros, long[] replyBytes, long[] replyAtMillis) {

  /** Sorted copies of the samples, so that nothing outside changes them and every figure reads them in order. */
  public ConnFigures {
    statusClasses = statusClasses.clone();
    connectionMicros = sorted(connectionMicros);
    replyMicros = sorted(replyMicros);
    replyBytes = sorted(replyBytes);
    replyAtMillis = sorted(replyAtMillis);
  }

  /**
   * The figures of several injectors' same round, as one: counts, status classes, CPU times and most open added,
   * samples together, the window from the first start of any to the last end of any.
   *
   * @param injectors each injector's figures of the round
   * @return the round's figures of all of them
   */
  public static ConnFigures merge(List<ConnFigures> injectors) {
    long[] statusClasses = new long[6];
    injectors.forEach(each -> Arrays.setAll(statusClasses, i -> statusClasses[i] + each.statusClasses[i]));
    return new ConnFigures(
        injectors.stream().mapToLong(ConnFigures::connections).sum(),
        injectors.stream().mapToLong(ConnFigures::requests).sum(),
        injectors.stream().mapToLong(ConnFigures::unanswered).sum(),
        injectors.stream().mapToLong(ConnFigures::failed).sum(),
        statusClasses,
        injectors.stream().mapToInt(ConnFigures::mostOpen).sum(),
        injectors.stream().mapToDouble(ConnFigures::cpuSeconds).sum(),
        injectors.stream().map(ConnFigures::firstStartMillis).filter(Objects::nonNull).min(Long::compare)
            .orElse(null),
        injectors.stream().map(ConnFigures::lastEndMillis).filter(Objects::nonNull).max(Long::compare).orElse(null),
        together(injectors, ConnFigures::connectionMicros),
        together(injectors, ConnFigures::replyMicros),
        together(injectors, ConnFigures::replyBytes),
        together(injectors, ConnFigures::replyAtMillis));
  }

  /** @return replies received, whatever their status */
  public long replies() {
    return replyMicros.length;
  }

  /**
   * @param statusClass 1 for 1xx ... 5 for 5xx, 0 for anything else
   * @return replies of that class
   */
  public long statusClass(int statusClass) {
    return statusClasses[statusClass];
  }

  /** @return seconds from the first connection's start to the last one's end, httperf's test-duration */
  public double seconds() {
    return firstStartMillis == null || lastEndMillis == null ? 0 : (lastEndMillis - firstStartMillis) / 1e3;
  }

  /** @return the connection times' figures, in milliseconds */
  public Samples.Stats connectionMillis() {
    return Samples.Stats.of(connectionMicros).dividedBy(1e3);
  }

  /** @return the reply times' figures, in milliseconds */
  public Samples.Stats replyMillis() {
    return Samples.Stats.of(replyMicros).dividedBy(1e3);
  }

  /**
   * @param percent e.g. 95
   * @return that percentile of the reply times, in milliseconds, the nearest rank; 0 without replies
   */
  public double replyPercentileMillis(int percent) {
    if (replyMicros.length == 0) {
      return 0;
    }
    int rank = (int) Math.ceil(percent / 100.0 * replyMicros.length);
    return replyMicros[Math.max(0, rank - 1)] / 1e3;
  }

  /** @return the reply body sizes' figures, in bytes */
  public Samples.Stats replySizes() {
    return Samples.Stats.of(replyBytes);
  }

  /**
   * httperf's reply rate samples: replies in each full window of {@code window} seconds from the
   * first connection's start, divided by the window; a last, partial window is left out, as httperf does.
   *
   * @param windowSeconds the sampling period, 5 for httperf
   * @return one rate per full window, in replies per second
   */
  public Samples.Stats replyRate(int windowSeconds) {
    return Samples.Stats.of(sorted(repliesPerWindow(windowSeconds))).dividedBy(windowSeconds);
  }

  /**
   * The same samples in the order they were taken, for a chart of the rate over the run.
   *
   * @param windowSeconds the sampling period, 5 for httperf
   * @return replies per second in each full window, the first window first
   */
  public double[] replyRateOverTime(int windowSeconds) {
    return Arrays.stream(repliesPerWindow(windowSeconds)).mapToDouble(count -> count / (double) windowSeconds)
        .toArray();
  }

  private long[] repliesPerWindow(int windowSeconds) {
    int windows = (int) Math.floor(seconds() / windowSeconds);
    long[] counts = new long[windows];
    long window = windowSeconds * 1_000L;
    for (long instant : replyAtMillis) {
      long index = (instant - firstStartMillis) / window;
      if (index >= 0 && index < windows) {
        counts[(int) index]++;
      }
    }
    return counts;
  }

  private static long[] sorted(long[] values) {
    long[] copy = values.clone();
    Arrays.sort(copy);
    return copy;
  }

  private static long[] together(List<ConnFigures> injectors, Function<ConnFigures, long[]> samples) {
    return injectors.stream().flatMapToLong(each -> Arrays.stream(samples.apply(each))).toArray();
  }

  /** Equal when every count and every sample, in order, is: a record compares arrays by reference otherwise. */
  @Override
  public boolean equals(Object other) {
    return other instanceof ConnFigures that && connections == that.connections && requests == that.requests
        && unanswered == that.unanswered && failed == that.failed && mostOpen == that.mostOpen
        && Double.compare(cpuSeconds, that.cpuSeconds) == 0 && Objects.equals(firstStartMillis, that.firstStartMillis)
        && Objects.equals(lastEndMillis, that.lastEndMillis) && Arrays.equals(statusClasses, that.statusClasses)
        && Arrays.equals(connectionMicros, that.connectionMicros) && Arrays.equals(replyMicros, that.replyMicros)
        && Arrays.equals(replyBytes, that.replyBytes) && Arrays.equals(replyAtMillis, that.replyAtMillis);
  }

  @Override
  public int hashCode() {
    return Objects.hash(connections, requests, unanswered, failed, mostOpen, cpuSeconds, firstStartMillis,
        lastEndMillis, Arrays.hashCode(statusClasses), Arrays.hashCode(connectionMicros), Arrays.hashCode(replyMicros),
        Arrays.hashCode(replyBytes), Arrays.hashCode(replyAtMillis));
  }

  @Override
  public String toString() {
    return "ConnFigures[connections=" + connections + ", requests=" + requests + ", unanswered=" + unanswered
        + ", failed=" + failed + ", statusClasses=" + Arrays.toString(statusClasses) + ", mostOpen=" + mostOpen
        + ", cpuSeconds=" + cpuSeconds + ", firstStartMillis=" + firstStartMillis + ", lastEndMillis="
        + lastEndMillis + ", connectionMicros=" + Arrays.toString(connectionMicros) + ", replyMicros="
        + Arrays.toString(replyMicros) + ", replyBytes=" + Arrays.toString(replyBytes) + ", replyAtMillis="
        + Arrays.toString(replyAtMillis) + "]";
  }
}
