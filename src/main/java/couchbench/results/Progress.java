package couchbench.results;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The console's account of a load as it runs, on one line: for each source, the requests that have ended so far, their
 * rate since the previous account and the failed ones; then the time left, where a source can tell. The counts are
 * those couchbench keeps anyway, read when an account is asked for: couchbench's memcache client's (as of the last
 * {@link RunOutput#INTERVAL}) and a simulation's own tallies (BulkInsert's steps). Nothing is added to a request's path
 * for it; requests that no source counts (Gatling's HTTP requests outside a tally) are not in the line.
 */
public final class Progress {

  /** What a source has counted so far. */
  public record Counts(long requests, long failed) {}

  /** Counts kept by couchbench as the load runs. */
  public interface Source {

    /** @return what the requests counted are, for the line: e.g. "writes", "memcache requests" */
    String counted();

    /** @return the requests that have ended so far, and the failed ones among them; cheap, and safe from any thread */
    Counts counts();

    /** @return the load's time left, where this source can tell; empty by default */
    default Optional<Duration> left() {
      return Optional.empty();
    }

    /**
     * @param counted what the requests counted are, e.g. "writes"
     * @param counts the requests ended so far and the failed ones among them, cheap and safe from any thread
     * @return a source that cannot tell the time left
     */
    static Source of(String counted, Supplier<Counts> counts) {
      return new Source() {
        @Override
        public String counted() {
          return counted;
        }

        @Override
        public Counts counts() {
          return counts.get();
        }
      };
    }
  }

  private final List<Source> sources;
  private final LongSupplier nanoClock;
  private final long[] before;
  private long beforeNanos;

  /**
   * @param sources what is counted, in the line's order
   * @param nanoClock nanoseconds, as {@link System#nanoTime()}: a test's, to know the seconds beforehand
   */
  Progress(List<Source> sources, LongSupplier nanoClock) {
    this.sources = List.copyOf(sources);
    this.nanoClock = nanoClock;
    this.before = new long[sources.size()];
    this.beforeNanos = nanoClock.getAsLong();
  }

  /**
   * @param sources what is counted
   * @return an account of them from now on; empty when there is nothing to count
   */
  public static Optional<Progress> of(List<Source> sources) {
    return sources.isEmpty() ? Optional.empty() : Optional.of(new Progress(sources, System::nanoTime));
  }

  /**
   * The account now, e.g. "so far 12,345 writes, 410/s, 0 failed; about 1 min 50 s left"; the next account's rate is
   * taken from here.
   *
   * @return the line's text
   */
  public synchronized String line() {
    long now = nanoClock.getAsLong();
    double seconds = Math.max(now - beforeNanos, 1) / 1e9;
    List<String> parts = new ArrayList<>();
    Optional<Duration> left = Optional.empty();
    for (int i = 0; i < sources.size(); i++) {
      Source source = sources.get(i);
      Counts counts = source.counts();
      long rate = Math.round((counts.requests() - before[i]) / seconds);
      before[i] = counts.requests();
      parts.add(String.format(Locale.ROOT, "%,d %s, %,d/s, %,d failed", counts.requests(), source.counted(), rate,
          counts.failed()));
      if (left.isEmpty()) {
        left = source.left();
      }
    }
    beforeNanos = now;
    return "so far " + String.join("; ", parts) + left.map(time -> "; about " + duration(time) + " left").orElse("");
  }

  /**
   * @param time a time span
   * @return it in words, to the second: "45 s", "3 min 5 s", "1 h 2 min"
   */
  static String duration(Duration time) {
    long seconds = Math.max(0, Math.round(time.toMillis() / 1000.0));
    if (seconds < 60) {
      return seconds + " s";
    }
    if (seconds < 3600) {
      return seconds / 60 + " min" + (seconds % 60 == 0 ? "" : " " + seconds % 60 + " s");
    }
    return seconds / 3600 + " h" + (seconds % 3600 / 60 == 0 ? "" : " " + seconds % 3600 / 60 + " min");
  }
}
