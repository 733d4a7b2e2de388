package couchbench.distributions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.ObjectSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class MixTest {

  @Test
  void shouldDrawEachOperationWithinOnePercentOfItsProportionOverAHundredThousandDraws() {
    List<Map<String, Double>> workloads = List.of(
        proportions("read", 0.5, "update", 0.5),
        proportions("read", 0.95, "update", 0.05),
        proportions("read", 1.0),
        proportions("read", 0.95, "insert", 0.05),
        proportions("scan", 0.95, "insert", 0.05),
        proportions("read", 0.5, "readmodifywrite", 0.5));
    long seed = 50;
    for (Map<String, Double> proportions : workloads) {
      ObjectSampler<String> sampler = Mix.of(proportions).sampler(random(seed++));
      Map<String, Integer> counts = new HashMap<>();
      for (int i = 0; i < 100_000; i++) {
        counts.merge(sampler.sample(), 1, Integer::sum);
      }
      assertEquals(proportions.keySet(), counts.keySet());
      proportions.forEach((operation, proportion) ->
          assertEquals(proportion, counts.get(operation) / 100_000.0, 0.01, operation + " of " + proportions));
    }
  }

  @Test
  void shouldNeverDrawAKindOfProportionZero() {
    Mix<String> mix = Mix.of(proportions("read", 0.5, "scan", 0.0, "update", 0.5));
    assertEquals(proportions("read", 0.5, "update", 0.5), mix.proportions());
    ObjectSampler<String> sampler = mix.sampler(random(60));
    for (int i = 0; i < 10_000; i++) {
      assertEquals(false, sampler.sample().equals("scan"));
    }
  }

  @Test
  void shouldTakeProportionsThatAddUpToOneAsDoublesDo() {
    Mix.of(proportions("a", 0.1, "b", 0.2, "c", 0.7)); // 0.9999999999999999
    Mix.of(proportions("a", 1.0 / 3, "b", 1.0 / 3, "c", 1.0 / 3));
  }

  @Test
  void shouldStopOnProportionsThatDoNotAddUpToOneWithOneLine() {
    assertEquals("proportions {read=0.5, update=0.6} add up to 1.1; allowed: numbers from 0 to 1 that add up to 1",
        failure(proportions("read", 0.5, "update", 0.6)));
    assertEquals("proportions {read=1.2, update=-0.2} add up to 1.0; allowed: numbers from 0 to 1 that add up to 1",
        failure(proportions("read", 1.2, "update", -0.2)));
    assertEquals("proportions {read=NaN} add up to NaN; allowed: numbers from 0 to 1 that add up to 1",
        failure(proportions("read", Double.NaN)));
    assertEquals("proportions {} add up to 0.0; allowed: numbers from 0 to 1 that add up to 1",
        failure(proportions()));
  }

  private static String failure(Map<String, Double> proportions) {
    return assertThrows(IllegalArgumentException.class, () -> Mix.of(proportions)).getMessage();
  }

  private static UniformRandomProvider random(long seed) {
    return RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
  }

  private static Map<String, Double> proportions(Object... kindsAndProportions) {
    Map<String, Double> proportions = new LinkedHashMap<>();
    for (int i = 0; i < kindsAndProportions.length; i += 2) {
      proportions.put((String) kindsAndProportions[i], (Double) kindsAndProportions[i + 1]);
    }
    return proportions;
  }
}
