package couchbench.distributions;

import static couchbench.distributions.ChiSquare.assertFits;
import static couchbench.distributions.ChiSquare.assertSameDistribution;
import static couchbench.distributions.ChiSquare.counts;
import static couchbench.distributions.ZipfianTest.random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import site.ycsb.generator.ScrambledZipfianGenerator;

class KeyChoosersTest {

  static final int RECORDS = 1000;

  @Test
  void shouldDrawEveryRecordAlike() {
    KeyChooser uniform = loaded(Distribution.UNIFORM, 40);
    double[] even = new double[RECORDS];
    Arrays.fill(even, 1.0 / RECORDS);
    assertFits("uniform", counts(RECORDS, 200_000, uniform::next), even);
  }

  @Test
  void shouldDrawTheHotFifthOfTheKeysForFourFifthsOfTheDraws() {
    int draws = 400_000;
    KeyChooser hotspot = loaded(Distribution.HOTSPOT, 41);
    long[] counts = counts(RECORDS, draws, hotspot::next);
    int hot = RECORDS / 5;
    double hotShare = (double) Arrays.stream(counts, 0, hot).sum() / draws;
    assertEquals(0.8, hotShare, 4.5 * Math.sqrt(0.8 * 0.2 / draws));
    double[] probabilities = new double[RECORDS];
    Arrays.fill(probabilities, 0, hot, 0.8 / hot);
    Arrays.fill(probabilities, hot, RECORDS, 0.2 / (RECORDS - hot));
    assertFits("hotspot", counts, probabilities);
  }

  @Test
  void shouldWalkTheKeysInOrderAndWrapAroundForAllTheUsersOfARun() {
    KeyChoosers run = KeyChoosers.forRun(Distribution.SEQUENTIAL, 5, 0, 0.99, new InsertSequence(5));
    KeyChooser first = run.forUser(random(42));
    KeyChooser second = run.forUser(random(43));
    List<Long> keys = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      keys.add(first.next());
      keys.add(second.next());
    }
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 0L, 1L, 2L, 3L, 4L, 0L, 1L), keys);
    KeyChooser alone = KeyChoosers.of(Distribution.SEQUENTIAL, 5, 0, 0.99, new InsertSequence(5), random(44));
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 0L), LongStream.generate(alone::next).limit(6).boxed().toList());
  }

  @Test
  void shouldPutTheExponentialsNinetyFifthPercentileAtSixSeventhsOfTheRecords() {
    int draws = 200_000;
    InsertSequence inserts = new InsertSequence(RECORDS);
    insert(inserts, 20 * RECORDS); // the oldest keys so far back that no draw is drawn again
    KeyChooser exponential = KeyChoosers.of(Distribution.EXPONENTIAL, RECORDS, 0, 0.99, inserts, random(45));
    long last = inserts.lastAcknowledged();
    long within = LongStream.generate(exponential::next).limit(draws)
        .filter(key -> last - key < RECORDS * 0.8571428571).count();
    assertEquals(0.95, (double) within / draws, 4.5 * Math.sqrt(0.95 * 0.05 / draws));
  }

  @Test
  void shouldCountExponentialDrawsBackFromTheLastInsertAndDrawAgainBeforeKeyZero() {
    int draws = 200_000;
    int width = 20;
    InsertSequence inserts = new InsertSequence(RECORDS);
    insert(inserts, RECORDS / 5);
    KeyChooser exponential = KeyChoosers.of(Distribution.EXPONENTIAL, RECORDS, 0, 0.99, inserts, random(46));
    long last = inserts.lastAcknowledged();
    int bins = (int) (last + 1) / width;
    long[] counts = counts(bins, draws, () -> (last - exponential.next()) / width);
    double gamma = -Math.log(0.05) / (RECORDS * 0.8571428571);
    double[] probabilities = new double[bins];
    for (int bin = 0; bin < bins; bin++) {
      probabilities[bin] = (Math.exp(-gamma * bin * width) - Math.exp(-gamma * (bin + 1) * width))
          / (1 - Math.exp(-gamma * (last + 1)));
    }
    assertFits("exponential, counted back", counts, probabilities);
  }

  @Test
  void shouldDrawZipfianKeysAsYcsbsCoreWorkload() {
    int draws = 1_000_000;
    int expectedInserts = 100;
    InsertSequence inserts = new InsertSequence(RECORDS);
    insert(inserts, expectedInserts / 2);
    KeyChooser zipfian = KeyChoosers.of(Distribution.ZIPFIAN, RECORDS, expectedInserts, 0.99, inserts, random(47));
    long last = inserts.lastAcknowledged();
    // CoreWorkload: new ScrambledZipfianGenerator(insertstart, insertstart + insertcount + expectednewkeys), and
    // nextKeynum() draws again while the key is above the last acknowledged insert
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(0, RECORDS + expectedInserts);
    int keys = (int) last + 1;
    assertSameDistribution("zipfian against YCSB's CoreWorkload", counts(keys, draws, zipfian::next),
        counts(keys, draws, () -> {
          long key;
          do {
            key = ycsb.nextValue().longValue();
          } while (key > last);
          return key;
        }));
  }

  @ParameterizedTest
  @EnumSource(Distribution.class)
  void shouldNeverDrawAKeyWhoseInsertIsNotAcknowledged(Distribution distribution) {
    int records = 100;
    InsertSequence inserts = new InsertSequence(records);
    KeyChooser chooser = KeyChoosers.of(distribution, records, 4000, 0.99, inserts, random(48));
    UniformRandomProvider order = random(49);
    List<Long> pending = new ArrayList<>();
    long newKeysDrawn = 0;
    for (int step = 0; step < 100_000; step++) {
      if (step % 50 == 0) {
        pending.add(inserts.next());
      }
      if (step % 50 == 25 && pending.size() > 3) {
        inserts.acknowledge(pending.remove(order.nextInt(pending.size()))); // out of order
      }
      long key = chooser.next();
      assertTrue(key >= 0 && key <= inserts.lastAcknowledged(),
          distribution.lowerCase() + " drew " + key + ", acknowledged up to " + inserts.lastAcknowledged());
      newKeysDrawn += key >= records ? 1 : 0;
    }
    // YCSB's uniform, hotspot and sequential keep to the loaded records; the others reach the inserted ones
    boolean readsInserts = Set.of(Distribution.ZIPFIAN, Distribution.LATEST, Distribution.EXPONENTIAL)
        .contains(distribution);
    assertEquals(readsInserts, newKeysDrawn > 0,
        distribution.lowerCase() + " drew new keys " + newKeysDrawn + " times");
  }

  @Test
  void shouldStopOnARecordCountOrZipfianConstantOutOfRangeWithOneLine() {
    assertEquals("-Drecords=0: not a record count; allowed: a whole number >= 1", failure(0, 0.99));
    for (double constant : new double[] {0, 1, 1.5, -0.5, Double.NaN}) {
      assertEquals("-DzipfianConstant=" + constant + ": not a zipfian constant; allowed: a number between 0 and 1,"
          + " both excluded (YCSB's is 0.99)", failure(RECORDS, constant));
    }
  }

  @Test
  void shouldRefuseInsertsThatDoNotCoverTheRecords() {
    assertThrows(IllegalArgumentException.class,
        () -> KeyChoosers.forRun(Distribution.UNIFORM, RECORDS, 0, 0.99, new InsertSequence(RECORDS - 1)));
    assertThrows(IllegalArgumentException.class,
        () -> KeyChoosers.forRun(Distribution.UNIFORM, RECORDS, -1, 0.99, new InsertSequence(RECORDS)));
  }

  private static String failure(long records, double zipfianConstant) {
    return assertThrows(IllegalArgumentException.class, () -> KeyChoosers.forRun(Distribution.ZIPFIAN, records, 0,
        zipfianConstant, new InsertSequence(Math.max(records, 1)))).getMessage();
  }

  /** @return a chooser over RECORDS loaded records, no insert since */
  private static KeyChooser loaded(Distribution distribution, long seed) {
    return KeyChoosers.of(distribution, RECORDS, 0, 0.99, new InsertSequence(RECORDS), random(seed));
  }

  private static void insert(InsertSequence inserts, int count) {
    for (int i = 0; i < count; i++) {
      inserts.acknowledge(inserts.next());
    }
  }
}
