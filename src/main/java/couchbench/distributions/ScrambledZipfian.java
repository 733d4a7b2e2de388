package couchbench.distributions;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Zipfian popularity scattered over the item numbers: YCSB's {@code ScrambledZipfianGenerator} (0.17.0). A
 * {@link Zipfian} draw over YCSB's space of 10^10 items (10^10 + 1, as YCSB makes it) is hashed with 64-bit FNV-1a
 * (YCSB's {@code Utils.fnvhash64}) onto the items, so that the popular items lie anywhere and do not change when the
 * item count grows a little. One instance per user: not thread-safe.
 *
 * <p>For YCSB's constant, 0.99, zeta of the space is YCSB's precomputed one. YCSB would sum 10^10 terms for any other
 * constant (minutes); here the first thousand terms are summed and the rest come from the Euler-Maclaurin formula
 * (for 0.99 that gives YCSB's zeta to 1e-12).
 */
public final class ScrambledZipfian {

  static final long ITEM_SPACE = 10_000_000_000L;
  static final double YCSB_CONSTANT = 0.99;
  /** YCSB's ScrambledZipfianGenerator.ZETAN: zeta of 10^10 items for 0.99. */
  static final double YCSB_ZETA = 26.46902820178302;
  private static final long SUMMED_TERMS = 1000;

  private final long items;
  private final Zipfian zipfian;

  /**
   * @param items the item count, 0 to items - 1
   * @param theta the zipfian constant, in (0, 1)
   * @param random where the draws come from
   */
  public ScrambledZipfian(long items, double theta, UniformRandomProvider random) {
    this.items = items;
    double zeta = theta == YCSB_CONSTANT ? YCSB_ZETA : spaceZeta(theta);
    this.zipfian = new Zipfian(ITEM_SPACE + 1, theta, zeta, random);
  }

  /** @return an item from 0 to items - 1 */
  public long next() {
    // YCSB's Math.abs(hash) % items; floorMod differs only for the one hash whose abs is negative (Long.MIN_VALUE)
    return Math.floorMod(Fnv.hash64(zipfian.next()), items);
  }

  /** @return zeta of 10^10 items: the first terms summed, the rest by Euler-Maclaurin up to the third derivative */
  static double spaceZeta(double theta) {
    double a = SUMMED_TERMS + 1;
    double b = ITEM_SPACE;
    double integral = (Math.pow(b, 1 - theta) - Math.pow(a, 1 - theta)) / (1 - theta);
    double ends = (Math.pow(a, -theta) + Math.pow(b, -theta)) / 2;
    double first = -theta * (Math.pow(b, -theta - 1) - Math.pow(a, -theta - 1)) / 12;
    double third = -theta * (theta + 1) * (theta + 2) * (Math.pow(b, -theta - 3) - Math.pow(a, -theta - 3)) / 720;
    return Zipfian.zeta(SUMMED_TERMS, theta) + integral + ends + first - third;
  }
}
