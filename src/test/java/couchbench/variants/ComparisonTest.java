package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.history.JudgedFigures;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComparisonTest {

  private static List<JudgedFigures.Value> round(double throughput, double p50) {
    return List.of(new JudgedFigures.Value("get", "throughput", "requests/s", false, throughput, false),
        new JudgedFigures.Value("get", "p50", "us", true, p50, false));
  }

  private static Comparison comparison(List<List<JudgedFigures.Value>> a, List<List<JudgedFigures.Value>> b) {
    return Comparison.of(List.of("a", "b"), List.of(a, b));
  }

  @Test
  void shouldCallAVariantWorseOnlyWhenEveryRoundIsWorseThanEveryRoundOfTheFirst() {
    Comparison apart = comparison(List.of(round(1000, 100), round(1010, 110), round(990, 105)),
        List.of(round(700, 3100), round(720, 3120), round(710, 3090)));
    Comparison.Judged throughput = apart.figures().get(0);
    Comparison.Judged p50 = apart.figures().get(1);

    assertEquals(Comparison.Verdict.WORSE, throughput.verdict(1), "fewer requests a second in every round");
    assertEquals(Comparison.Verdict.WORSE, p50.verdict(1), "a higher latency in every round");
    assertEquals(710.0 / 1000, throughput.ratio(1), 1e-9);
    assertEquals(0.1, p50.chanceByNoise(1), 1e-12, "3 rounds each: 2 / C(6, 3)");

    Comparison overlapping = comparison(List.of(round(1000, 100), round(1010, 110), round(990, 105)),
        List.of(round(1005, 108), round(700, 3120), round(710, 3090)));
    assertEquals(Comparison.Verdict.SAME, overlapping.figures().get(0).verdict(1), "one round within a's range");
    assertEquals(Comparison.Verdict.SAME, overlapping.figures().get(1).verdict(1));

    Comparison better = comparison(List.of(round(1000, 100), round(1010, 110)), List.of(round(1100, 90),
        round(1200, 95)));
    assertEquals(Comparison.Verdict.BETTER, better.figures().get(0).verdict(1));
    assertEquals(Comparison.Verdict.BETTER, better.figures().get(1).verdict(1));
  }

  @Test
  void shouldGiveNoVerdictOnOneRoundAndNoneForAFigureAVariantLacks() {
    Comparison once = comparison(List.of(round(1000, 100)), List.of(round(10, 10_000)));
    assertEquals(Comparison.Verdict.NOT_JUDGED, once.figures().get(0).verdict(1));

    Comparison lacking = comparison(List.of(round(1000, 100), round(1000, 100)), List.of(List.of(), List.of()));
    assertEquals(Comparison.Verdict.NOT_JUDGED, lacking.figures().get(0).verdict(1));
    assertTrue(Double.isNaN(lacking.figures().get(0).ratio(1)));
    assertEquals(null, lacking.figures().get(0).spreads().get(1));
  }

  @Test
  void shouldGiveTheChanceOfAFalseVerdictAsTwoOverTheWaysToChooseTheRounds() {
    assertEquals(1.0 / 3, Comparison.chanceByNoise(2, 2), 1e-12);
    assertEquals(1.0 / 126, Comparison.chanceByNoise(5, 5), 1e-12);
    assertEquals(1.0 / 6435, Comparison.chanceByNoise(8, 8), 1e-12);
    assertEquals(2.0 / 35, Comparison.chanceByNoise(3, 4), 1e-12, "C(7, 3) = 35");
    assertEquals(1, Comparison.chanceByNoise(1, 5));
    assertEquals("1 in 6,435", Comparison.oneIn(Comparison.chanceByNoise(8, 8)));
  }
}
