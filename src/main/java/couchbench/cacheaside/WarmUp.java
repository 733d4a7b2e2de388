package couchbench.cacheaside;

import java.util.List;
import java.util.OptionalLong;

/**
 * The warm-up after a cold cache, from the reads second by second: the hit ratio before the cache was emptied, and the
 * time until it was back.
 *
 * <p>Before is the hit ratio of the {@value #BEFORE} whole seconds before the second the cache was emptied in (fewer
 * when the load had not run that long), hits over reads of those seconds together. Back is the first second after it
 * from which the {@value #WINDOW} seconds' hit ratio (hits over reads of the five together) is no more than
 * {@value #WITHIN} below before, relative (a ratio above before is back as well: the cache was still filling); the
 * warm-up is the seconds from the emptied second to that one. A single second of few reads swings too far to call
 * the cache warm; five seconds do not, and a 5 % margin is the issue's.
 */
final class WarmUp {

  /** The seconds before the cache was emptied whose hit ratio is the one to come back to. */
  static final int BEFORE = 10;

  /** The seconds whose hit ratio together says the cache is back. */
  static final int WINDOW = 5;

  /** How far below before, relative, is still back. */
  static final double WITHIN = 0.05;

  private WarmUp() {}

  /**
   * @param seconds the reads second by second, from second 0
   * @param emptiedSecond the second the cache was emptied in
   * @return the hit ratio before; -1 when no second before it had a read
   */
  static double before(List<CacheAsideFigures.ReadSecond> seconds, long emptiedSecond) {
    long hits = 0;
    long reads = 0;
    for (CacheAsideFigures.ReadSecond second : seconds) {
      if (second.second() >= emptiedSecond - BEFORE && second.second() < emptiedSecond) {
        hits += second.hits();
        reads += second.reads();
      }
    }
    return reads == 0 ? -1 : (double) hits / reads;
  }

  /**
   * @param seconds the reads second by second, from second 0
   * @param emptiedSecond the second the cache was emptied in
   * @param before the hit ratio to come back to, from {@link #before}
   * @return the seconds from the emptied second to the first of {@value #WINDOW} seconds whose hit ratio is back
   *     within {@value #WITHIN} of before; empty when none is before the run's end (a window cut short by it does not
   *     count)
   */
  static OptionalLong seconds(List<CacheAsideFigures.ReadSecond> seconds, long emptiedSecond, double before) {
    for (int from = 0; from + WINDOW <= seconds.size(); from++) {
      if (seconds.get(from).second() <= emptiedSecond) {
        continue;
      }
      long hits = 0;
      long reads = 0;
      for (CacheAsideFigures.ReadSecond second : seconds.subList(from, from + WINDOW)) {
        hits += second.hits();
        reads += second.reads();
      }
      if (reads > 0 && (double) hits / reads >= before * (1 - WITHIN)) {
        return OptionalLong.of(seconds.get(from).second() - emptiedSecond);
      }
    }
    return OptionalLong.empty();
  }

  /**
   * @param seconds the reads second by second
   * @param from the first second, included
   * @param to the last second, excluded
   * @return the misses' CouchDB reads a second over those seconds; -1 for none
   */
  static double couchReadsPerSecond(List<CacheAsideFigures.ReadSecond> seconds, long from, long to) {
    return seconds.stream().filter(second -> second.second() >= from && second.second() < to)
        .mapToLong(CacheAsideFigures.ReadSecond::couchReads).average().orElse(-1);
  }
}
