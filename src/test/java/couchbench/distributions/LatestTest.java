package couchbench.distributions;

import static couchbench.distributions.ChiSquare.assertFits;
import static couchbench.distributions.ChiSquare.assertSameDistribution;
import static couchbench.distributions.ChiSquare.counts;
import static couchbench.distributions.ZipfianTest.gray;
import static couchbench.distributions.ZipfianTest.random;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import site.ycsb.generator.CounterGenerator;
import site.ycsb.generator.SkewedLatestGenerator;

class LatestTest {

  static final int RECORDS = 1000;
  static final int DRAWS = 1_000_000;

  @Test
  void shouldDrawTheNewestKeysMostOften() {
    InsertSequence inserts = new InsertSequence(RECORDS);
    KeyChooser latest = KeyChoosers.of(Distribution.LATEST, RECORDS, 0, 0.99, inserts, random(30));
    long[] counts = counts(RECORDS, DRAWS, latest::next);
    double zeta = Zipfian.zeta(RECORDS - 1, 0.99);
    assertEquals(1 / zeta, share(counts[RECORDS - 1]), tolerance(1 / zeta));
    assertEquals(Math.pow(0.5, 0.99) / zeta, share(counts[RECORDS - 2]), tolerance(Math.pow(0.5, 0.99) / zeta));
    // key = last - a zipfian draw over last items: keys 1 to last, as YCSB's
    double[] back = gray(RECORDS - 1, 0.99, zeta, RECORDS - 1, RECORDS - 1);
    double[] probabilities = new double[RECORDS];
    for (int z = 0; z < back.length; z++) {
      probabilities[RECORDS - 1 - z] = back[z];
    }
    assertFits("latest", counts, probabilities);
  }

  @Test
  void shouldDrawAsYcsbsSkewedLatestGeneratorAsInsertsComeIn() {
    InsertSequence inserts = new InsertSequence(RECORDS);
    KeyChooser latest = KeyChoosers.of(Distribution.LATEST, RECORDS, 0, 0.99, inserts, random(31));
    CounterGenerator ycsbInserts = new CounterGenerator(RECORDS);
    SkewedLatestGenerator ycsb = new SkewedLatestGenerator(ycsbInserts);
    for (int i = 0; i < RECORDS / 2; i++) {
      inserts.acknowledge(inserts.next());
      ycsbInserts.nextValue();
    }
    int keys = RECORDS + RECORDS / 2;
    long[] counts = counts(keys, DRAWS, latest::next);
    assertSameDistribution("latest against YCSB's", counts, counts(keys, DRAWS, () -> ycsb.nextValue().longValue()));
    // YCSB's zipfian keeps eta of its first item count: grown by half, it skips the third newest key
    assertEquals(0, counts[keys - 3]);
  }

  private static double share(long count) {
    return (double) count / DRAWS;
  }

  /** 4.5 standard deviations of a share of DRAWS draws. */
  static double tolerance(double probability) {
    return 4.5 * Math.sqrt(probability * (1 - probability) / DRAWS);
  }
}
