package couchbench.viewquery;

import java.util.Arrays;

/**
 * Values recorded by many virtual users at once (times in nanoseconds, sizes in bytes), and the
 * figures httperf prints of them. Appending is synchronized: at the rates of an httperf run (a few
 * thousand a second) that costs far less than the requests being measured.
 */
public final class Samples {

  private long[] values = new long[1024];
  private int size;

  /**
   * Records one value.
   *
   * @param value the value
   */
  public synchronized void add(long value) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
    }
    values[size++] = value;
  }

  /** @return how many values were recorded */
  public synchronized int count() {
    return size;
  }

  /** @return a sorted copy of the values */
  public synchronized long[] sorted() {
    long[] copy = Arrays.copyOf(values, size);
    Arrays.sort(copy);
    return copy;
  }

  /**
   * The figures of the values recorded so far.
   *
   * @return min, average, max, median and standard deviation; all 0 when there are none
   */
  public Stats stats() {
    return Stats.of(sorted());
  }

  /**
   * Summary figures, in the unit of the values.
   *
   * @param count how many values
   * @param min the smallest
   * @param avg the mean
   * @param max the largest
   * @param median the middle value (the mean of the two middle ones for an even count)
   * @param stddev the sample standard deviation, as httperf computes it (0 for fewer than 2 values)
   */
  public record Stats(int count, double min, double avg, double max, double median, double stddev) {

    /**
     * Computes the figures of sorted values.
     *
     * @param sorted the values, in ascending order
     * @return the figures
     */
    public static Stats of(long[] sorted) {
      int n = sorted.length;
      if (n == 0) {
        return new Stats(0, 0, 0, 0, 0, 0);
      }
      double sum = 0;
      for (long v : sorted) {
        sum += v;
      }
      double avg = sum / n;
      double squares = 0;
      for (long v : sorted) {
        squares += (v - avg) * (v - avg);
      }
      double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
      double stddev = n < 2 ? 0 : Math.sqrt(squares / (n - 1));
      return new Stats(n, sorted[0], avg, sorted[n - 1], median, stddev);
    }

    /**
     * The same figures in another unit.
     *
     * @param divisor e.g. 1e6 for nanoseconds to milliseconds
     * @return the figures divided by it (count unchanged)
     */
    public Stats dividedBy(double divisor) {
      return new Stats(count, min / divisor, avg / divisor, max / divisor, median / divisor, stddev / divisor);
    }
  }
}
