package couchbench.distributions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import site.ycsb.generator.ScrambledZipfianGenerator;

/**
 * Benchmark, not a test (bench/keydraw-rate.sh runs it): key draws per second on one thread, over a million keys, of
 * couchbench's scrambled zipfian against YCSB 0.17.0's ScrambledZipfianGenerator, with couchbench's zipfian key
 * chooser (the scrambled zipfian with the check against the last acknowledged insert, as Workload draws) and uniform
 * beside them for scale. Each round draws from every contender in turn, the first one changing from round to round,
 * after warm-up rounds that are not counted; the median and range of the rounds are printed, and of each round's
 * ratio to YCSB's rate in that round (which a busy machine changes less than the rates themselves). All contenders
 * are drawn through one LongSupplier call site, so each pays the same interface call.
 *
 * <p>Arguments: rounds (5), draws per contender and round (20,000,000), warm-up rounds (2).
 */
public final class KeyDrawRate {

  static final long KEYS = 1_000_000;
  private static final String YCSB = "YCSB ScrambledZipfianGenerator";

  private KeyDrawRate() {
  }

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    int draws = args.length > 1 ? Integer.parseInt(args[1]) : 20_000_000;
    int warmUps = args.length > 2 ? Integer.parseInt(args[2]) : 2;
    UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create();
    InsertSequence inserts = new InsertSequence(KEYS);
    Map<String, LongSupplier> contenders = new LinkedHashMap<>();
    contenders.put("couchbench ScrambledZipfian", new ScrambledZipfian(KEYS, 0.99, random)::next);
    ScrambledZipfianGenerator ycsb = new ScrambledZipfianGenerator(KEYS);
    contenders.put(YCSB, () -> ycsb.nextValue().longValue());
    contenders.put("couchbench zipfian KeyChooser",
        KeyChoosers.of(Distribution.ZIPFIAN, KEYS, 0, 0.99, inserts, random)::next);
    contenders.put("couchbench uniform KeyChooser",
        KeyChoosers.of(Distribution.UNIFORM, KEYS, 0, 0.99, inserts, random)::next);
    List<String> names = new ArrayList<>(contenders.keySet());
    Map<String, List<Double>> rates = new LinkedHashMap<>();
    names.forEach(name -> rates.put(name, new ArrayList<>()));
    long sink = 0;
    for (int round = -warmUps; round < rounds; round++) {
      for (int i = 0; i < names.size(); i++) {
        String name = names.get(Math.floorMod(round + i, names.size()));
        LongSupplier draw = contenders.get(name);
        long start = System.nanoTime();
        for (int d = 0; d < draws; d++) {
          sink += draw.getAsLong();
        }
        double rate = draws / ((System.nanoTime() - start) / 1e9);
        if (round >= 0) {
          rates.get(name).add(rate);
          System.out.printf(Locale.ROOT, "round %d  %-32s %7.1f M draws/s%n", round + 1, name, rate / 1e6);
        }
      }
    }
    System.out.printf(Locale.ROOT, "%nmedians of %d rounds, %,d draws each, one thread, %,d keys:%n", rounds, draws,
        KEYS);
    List<Double> ycsbRates = rates.get(YCSB);
    rates.forEach((name, list) -> {
      List<Double> ratios = new ArrayList<>();
      for (int round = 0; round < rounds; round++) {
        ratios.add(list.get(round) / ycsbRates.get(round));
      }
      System.out.printf(Locale.ROOT,
          "%-32s %7.1f M draws/s (%.1f-%.1f)   x%.2f YCSB's in the same round (%.2f-%.2f)%n",
          name, median(list) / 1e6, min(list) / 1e6, max(list) / 1e6, median(ratios), min(ratios), max(ratios));
    });
    System.out.println("(checksum " + sink + ")");
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static double min(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
  }

  private static double max(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
  }
}
