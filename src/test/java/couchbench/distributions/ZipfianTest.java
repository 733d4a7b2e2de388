package couchbench.distributions;

import static couchbench.distributions.ChiSquare.assertFits;
import static couchbench.distributions.ChiSquare.assertSameDistribution;
import static couchbench.distributions.ChiSquare.counts;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import site.ycsb.generator.ZipfianGenerator;

class ZipfianTest {

  static final int ITEMS = 1000;
  static final int DRAWS = 1_000_000;

  @Test
  void shouldDrawItemsAsGraysAlgorithmGivesThem() {
    Zipfian zipfian = new Zipfian(ITEMS, 0.99, Zipfian.zeta(ITEMS, 0.99), random(1));
    assertFits("zipfian 0.99", counts(ITEMS, DRAWS, zipfian::next),
        gray(ITEMS, 0.99, Zipfian.zeta(ITEMS, 0.99), ITEMS, ITEMS));
  }

  @Test
  void shouldDrawAsYcsbsZipfianGenerator() {
    Zipfian zipfian = new Zipfian(ITEMS, 0.99, Zipfian.zeta(ITEMS, 0.99), random(2));
    ZipfianGenerator ycsb = new ZipfianGenerator(ITEMS);
    assertSameDistribution("zipfian against YCSB's", counts(ITEMS, DRAWS, zipfian::next),
        counts(ITEMS, DRAWS, () -> ycsb.nextValue().longValue()));
  }

  @Test
  void shouldTellAWrongConstantFromYcsbsAndFromTheDefinition() {
    Zipfian wrong = new Zipfian(ITEMS, 0.8, Zipfian.zeta(ITEMS, 0.8), random(3));
    ZipfianGenerator ycsb = new ZipfianGenerator(ITEMS);
    long[] counts = counts(ITEMS, DRAWS, wrong::next);
    assertTrue(ChiSquare.twoSampleStatistic(counts, counts(ITEMS, DRAWS, () -> ycsb.nextValue().longValue()))
        > ChiSquare.critical(ITEMS - 1));
    assertTrue(ChiSquare.statistic(counts, gray(ITEMS, 0.99, Zipfian.zeta(ITEMS, 0.99), ITEMS, ITEMS))
        > ChiSquare.critical(ITEMS - 1));
  }

  @Test
  void shouldGrowZetaWithTheItemCountAndKeepEtasAsYcsbDoes() {
    Zipfian zipfian = new Zipfian(ITEMS, 0.99, Zipfian.zeta(ITEMS, 0.99), random(4));
    int grown = ITEMS + ITEMS / 2;
    assertFits("zipfian grown to 1500 items", counts(grown, DRAWS, () -> zipfian.next(grown)),
        gray(ITEMS, 0.99, Zipfian.zeta(grown, 0.99), grown, grown));
  }

  /**
   * The probabilities of the first items of Gray et al.'s algorithm as YCSB's ZipfianGenerator runs it: u uniform in
   * [0, 1) gives item 0 below 1 / zetan, item 1 below (1 + 0.5^theta) / zetan, else
   * floor(itemCount x (eta u - eta + 1)^(1 / (1 - theta))), with eta of the item count the generator was made with.
   *
   * @param items the item count the generator was made with
   * @param zetan zeta of the item count drawn over
   * @param itemCount the item count drawn over
   * @param head how many of the first items
   */
  static double[] gray(long items, double theta, double zetan, long itemCount, int head) {
    double zeta2 = 1 + 1 / Math.pow(2, theta);
    double eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2 / zetan);
    double secondEnd = (1 + Math.pow(0.5, theta)) / zetan;
    double[] probabilities = new double[head];
    probabilities[0] = 1 / zetan;
    probabilities[1] = secondEnd - 1 / zetan;
    double from = secondEnd;
    for (int k = 0; k < head; k++) {
      // the formula gives k + 1 or more from u = 1 + (((k + 1) / itemCount)^(1 - theta) - 1) / eta on
      double to = Math.min(1, Math.max(secondEnd, 1 + (Math.pow((k + 1.0) / itemCount, 1 - theta) - 1) / eta));
      probabilities[k] += to - from;
      from = to;
    }
    return probabilities;
  }

  static UniformRandomProvider random(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }
}
