package couchbench.distributions;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Zipfian item numbers, item 0 the most popular: YCSB's {@code ZipfianGenerator} (0.17.0), the algorithm of Gray et
 * al., "Quickly Generating Billion-Record Synthetic Databases" (SIGMOD 1994), drawing from a UniformRandomProvider
 * instead of ThreadLocalRandom. Items 0 and 1 have their exact zipfian probabilities, the rest a close approximation.
 *
 * <p>As YCSB's, a draw over more items than zeta was summed for adds the new items' terms to zeta, while eta keeps the
 * item count the generator was made with; a draw over fewer items keeps the larger zeta. One instance per user: not
 * thread-safe.
 */
public final class Zipfian {

  private final UniformRandomProvider random;
  /** The item count the generator was made with: eta's, always, and draws' by default. */
  private final long items;
  private final double theta;
  private final double alpha;
  private final double zeta2;
  /** Where the second item's draws end, times zeta: YCSB's 1 + 0.5^theta. */
  private final double secondItemEnd;
  private double zetan;
  private double eta;
  private long itemsInZeta;

  /**
   * @param items the item count, 0 to items - 1
   * @param theta the zipfian constant, in (0, 1)
   * @param zetan {@link #zeta(long, double)} of items and theta, when it is known (summing it takes items powers)
   * @param random where the draws come from
   */
  public Zipfian(long items, double theta, double zetan, UniformRandomProvider random) {
    this.random = random;
    this.items = items;
    this.theta = theta;
    this.alpha = 1 / (1 - theta);
    this.zeta2 = zeta(2, theta);
    this.secondItemEnd = 1 + Math.pow(0.5, theta);
    this.zetan = zetan;
    this.itemsInZeta = items;
    this.eta = eta();
  }

  /** @return an item from 0 to the item count the generator was made with, minus 1 */
  public long next() {
    return next(items);
  }

  /**
   * @param itemCount the item count for this draw, e.g. grown by inserts since the generator was made
   * @return an item from 0 to itemCount - 1
   */
  public long next(long itemCount) {
    if (itemCount > itemsInZeta) {
      zetan = zeta(itemsInZeta, itemCount, theta, zetan);
      itemsInZeta = itemCount;
      eta = eta();
    }
    double u = random.nextDouble();
    double uz = u * zetan;
    if (uz < 1) {
      return 0;
    }
    if (uz < secondItemEnd) {
      return 1;
    }
    return (long) (itemCount * Math.pow(eta * u - eta + 1, alpha));
  }

  /**
   * @param items the item count
   * @param theta the zipfian constant
   * @return the sum of 1 / i^theta for i from 1 to items, summed in that order as YCSB sums it
   */
  public static double zeta(long items, double theta) {
    return zeta(0, items, theta, 0);
  }

  private static double zeta(long from, long to, double theta, double sum) {
    for (long i = from; i < to; i++) {
      sum += 1 / Math.pow(i + 1, theta);
    }
    return sum;
  }

  private double eta() {
    return (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetan);
  }
}
