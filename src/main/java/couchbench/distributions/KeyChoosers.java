package couchbench.distributions;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.UniformLongSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * YCSB CoreWorkload's key choosers (0.17.0), one per {@link Distribution}, with its defaults:
 * <ul>
 *   <li>zipfian: a {@link ScrambledZipfian} over records + expected inserts + 1 items (YCSB's bounds, both inclusive),
 *       a draw above the last acknowledged insert drawn again;
 *   <li>uniform: Commons RNG's uniform over 0 to records - 1 (inserted keys are never read);
 *   <li>latest: {@link Latest};
 *   <li>hotspot: 0.8 of the draws uniform over the hot keys 0 to records x 0.2 - 1, the rest uniform over the others;
 *   <li>sequential: 0, 1, ... records - 1, then 0 again, one sequence for all the users of a run;
 *   <li>exponential: Commons RNG's exponential draw, whose 95th percentile is records x 0.8571428571, counted back from
 *       the last acknowledged insert, a draw before key 0 drawn again.
 * </ul>
 * Make one with {@link #forRun} per run and ask it {@link #forUser} for each user's chooser: the users then share
 * what YCSB's one generator holds (the sequential position, the latest zipfian's zeta).
 */
public final class KeyChoosers {

  /** The record count's run parameter, as bad-input messages name it. */
  public static final String RECORDS = "records";
  /** The zipfian constant's run parameter, as bad-input messages name it. */
  public static final String ZIPFIAN_CONSTANT = "zipfianConstant";
  /** CoreWorkload's hotspotdatafraction and hotspotopnfraction defaults. */
  static final double HOT_DATA = 0.2;
  static final double HOT_OPERATIONS = 0.8;
  /** ExponentialGenerator's exponential.percentile and exponential.frac defaults. */
  static final double EXPONENTIAL_PERCENTILE = 95;
  static final double EXPONENTIAL_FRACTION = 0.8571428571;

  private final Distribution distribution;
  private final long records;
  private final long zipfianItems;
  private final double zipfianConstant;
  private final InsertSequence inserts;
  private final double latestZeta;
  private final AtomicLong sequential = new AtomicLong();

  private KeyChoosers(Distribution distribution, long records, long expectedInserts, double zipfianConstant,
      InsertSequence inserts) {
    if (records < 1) {
      throw new IllegalArgumentException("-D" + RECORDS + "=" + records + ": not a record count; allowed: a whole"
          + " number >= 1");
    }
    if (!(zipfianConstant > 0 && zipfianConstant < 1)) {
      throw new IllegalArgumentException("-D" + ZIPFIAN_CONSTANT + "=" + zipfianConstant + ": not a zipfian"
          + " constant; allowed: a number between 0 and 1, both excluded (YCSB's is 0.99)");
    }
    if (expectedInserts < 0) {
      throw new IllegalArgumentException("expectedInserts: " + expectedInserts + " (expected: >= 0)");
    }
    if (inserts.lastAcknowledged() < records - 1) {
      throw new IllegalArgumentException("inserts: acknowledged up to key number " + inserts.lastAcknowledged()
          + " (expected: >= records - 1 = " + (records - 1) + ")");
    }
    this.distribution = distribution;
    this.records = records;
    this.zipfianItems = records + expectedInserts + 1;
    this.zipfianConstant = zipfianConstant;
    this.inserts = inserts;
    this.latestZeta = distribution == Distribution.LATEST ? Zipfian.zeta(records - 1, zipfianConstant) : 0;
  }

  /**
   * @param distribution the distribution
   * @param records the record count: key numbers 0 to records - 1 exist after the load phase
   * @param expectedInserts YCSB's expectednewkeys: operations x insert proportion x 2, 0 when unknown
   * @param zipfianConstant the zipfian constant of zipfian and latest, in (0, 1); YCSB's is 0.99
   * @param inserts the run's inserts, acknowledged up to records - 1 at least
   * @return the run's key choosers
   * @throws IllegalArgumentException with one line naming the property and its allowed values when records or
   *     zipfianConstant is out of range
   */
  public static KeyChoosers forRun(Distribution distribution, long records, long expectedInserts,
      double zipfianConstant, InsertSequence inserts) {
    return new KeyChoosers(distribution, records, expectedInserts, zipfianConstant, inserts);
  }

  /**
   * One user's key chooser, made by {@link #forRun} and {@link #forUser}: for a run of several users take one
   * {@link #forRun} and ask it for each user's, or each user walks the sequential keys on its own.
   *
   * @param distribution the distribution
   * @param records the record count
   * @param expectedInserts YCSB's expectednewkeys, 0 when unknown
   * @param zipfianConstant the zipfian constant, in (0, 1)
   * @param inserts the run's inserts
   * @param random where the user's draws come from
   * @return the user's key chooser
   * @throws IllegalArgumentException as {@link #forRun}
   */
  public static KeyChooser of(Distribution distribution, long records, long expectedInserts, double zipfianConstant,
      InsertSequence inserts, UniformRandomProvider random) {
    return forRun(distribution, records, expectedInserts, zipfianConstant, inserts).forUser(random);
  }

  /**
   * @param random where the user's draws come from, the user's own
   * @return a key chooser for one user (not thread-safe)
   */
  public KeyChooser forUser(UniformRandomProvider random) {
    return switch (distribution) {
      case ZIPFIAN -> existing(new ScrambledZipfian(zipfianItems, zipfianConstant, random));
      case UNIFORM -> UniformLongSampler.of(random, 0, records - 1)::sample;
      case LATEST -> new Latest(inserts, new Zipfian(records - 1, zipfianConstant, latestZeta, random));
      case HOTSPOT -> hotspot(random);
      case SEQUENTIAL -> () -> sequential.getAndIncrement() % records;
      case EXPONENTIAL -> exponential(random);
    };
  }

  private KeyChooser existing(ScrambledZipfian zipfian) {
    return () -> {
      long key;
      do {
        key = zipfian.next();
      } while (key > inserts.lastAcknowledged());
      return key;
    };
  }

  private KeyChooser hotspot(UniformRandomProvider random) {
    long hot = (long) (records * HOT_DATA);
    UniformLongSampler cold = UniformLongSampler.of(random, hot, records - 1);
    if (hot == 0) {
      return cold::sample; // under 5 records: YCSB would divide by 0
    }
    UniformLongSampler hotKeys = UniformLongSampler.of(random, 0, hot - 1);
    return () -> random.nextDouble() < HOT_OPERATIONS ? hotKeys.sample() : cold.sample();
  }

  private KeyChooser exponential(UniformRandomProvider random) {
    double gamma = -Math.log(1 - EXPONENTIAL_PERCENTILE / 100) / (records * EXPONENTIAL_FRACTION);
    ContinuousSampler back = ZigguratSampler.Exponential.of(random, 1 / gamma);
    return () -> {
      long key;
      do {
        key = inserts.lastAcknowledged() - (long) back.sample();
      } while (key < 0);
      return key;
    };
  }
}
