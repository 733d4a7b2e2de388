package couchbench.distributions;

import static couchbench.distributions.ChiSquare.assertFits;
import static couchbench.distributions.ChiSquare.assertSameDistribution;
import static couchbench.distributions.ChiSquare.counts;
import static couchbench.distributions.ZipfianTest.gray;
import static couchbench.distributions.ZipfianTest.random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import site.ycsb.Utils;
import site.ycsb.generator.ScrambledZipfianGenerator;

class ScrambledZipfianTest {

  static final int ITEMS = 1000;
  static final int DRAWS = 1_000_000;
  /** The zipfian draws below this are hashed one by one for the definition; those above spread evenly. */
  static final int HEAD = 1 << 20;

  @Test
  void shouldHashAsYcsb() {
    UniformRandomProvider random = random(10);
    for (int i = 0; i < 100_000; i++) {
      long value = i < 50_000 ? i : random.nextLong(ScrambledZipfian.ITEM_SPACE + 1);
      assertEquals(Utils.fnvhash64(value), Fnv.hash64(value), "hash of " + value);
    }
  }

  @Test
  void shouldSumZetaOfTheSpaceAsYcsbPrecomputedIt() {
    assertEquals(ScrambledZipfianGenerator.ZETAN, ScrambledZipfian.spaceZeta(0.99), 1e-10);
    // for 0.5: Riemann's zeta(0.5) + 2 sqrt(n) + 1 / (2 sqrt(n)), the next terms below 1e-16
    assertEquals(-1.4603545088095868 + 2e5 + 0.5e-5, ScrambledZipfian.spaceZeta(0.5), 1e-9);
  }

  @Test
  void shouldDrawKeysAsTheHashedZipfianGivesThem() {
    ScrambledZipfian zipfian = new ScrambledZipfian(ITEMS, 0.99, random(11));
    assertFits("scrambled zipfian", counts(ITEMS, DRAWS, zipfian::next), definition(ITEMS));
  }

  @Test
  void shouldDrawAsYcsbsScrambledZipfianGenerator() {
    ScrambledZipfian zipfian = new ScrambledZipfian(ITEMS, 0.99, random(12));
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(ITEMS);
    assertSameDistribution("scrambled zipfian against YCSB's", counts(ITEMS, DRAWS, zipfian::next),
        counts(ITEMS, DRAWS, () -> ycsb.nextValue().longValue()));
  }

  @Test
  void shouldTellAWrongConstantFromYcsbsAndFromTheDefinition() {
    ScrambledZipfian wrong = new ScrambledZipfian(ITEMS, 0.8, random(13));
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(ITEMS);
    long[] counts = counts(ITEMS, DRAWS, wrong::next);
    assertTrue(ChiSquare.twoSampleStatistic(counts, counts(ITEMS, DRAWS, () -> ycsb.nextValue().longValue()))
        > ChiSquare.critical(ITEMS - 1));
    assertTrue(ChiSquare.statistic(counts, definition(ITEMS)) > ChiSquare.critical(ITEMS - 1));
  }

  /**
   * The probability of each key of a ScrambledZipfian(items, 0.99): the zipfian draws of YCSB's space below
   * {@link #HEAD} hashed one by one, the rest of the probability (about half) spread evenly over the keys, as the hash
   * spreads those 10^10 draws (each key's share of them differs from even by about 0.3 %).
   */
  static double[] definition(int items) {
    long space = ScrambledZipfian.ITEM_SPACE + 1;
    double[] head = gray(space, 0.99, ScrambledZipfian.YCSB_ZETA, space, HEAD);
    double[] probabilities = new double[items];
    for (int z = 0; z < HEAD; z++) {
      probabilities[(int) (Fnv.hash64(z) % items)] += head[z];
    }
    double tail = (1 - Arrays.stream(head).sum()) / items;
    for (int key = 0; key < items; key++) {
      probabilities[key] += tail;
    }
    return probabilities;
  }
}
