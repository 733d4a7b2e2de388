package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class PercentileCurveTest {

  @Test
  void shouldLabelWholeNumbersOfNinesAndNothingBetween() {
    assertEquals("0%", PercentileCurve.percentileLabel(0));
    assertEquals("90%", PercentileCurve.percentileLabel(1));
    assertEquals("99%", PercentileCurve.percentileLabel(2));
    assertEquals("99.9%", PercentileCurve.percentileLabel(3));
    assertEquals("99.999%", PercentileCurve.percentileLabel(5));
    assertEquals(" ", PercentileCurve.percentileLabel(1.5));
  }

  @Test
  void shouldPlaceEachPercentileAtItsNinesAndEndAtTheMaximum() {
    Histogram nanos = new Histogram(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    for (int micros = 1; micros <= 10_000; micros++) {
      nanos.recordValue(micros * 1000L);
    }

    PercentileCurve curve = PercentileCurve.of(nanos);

    List<Double> xs = curve.xs();
    assertEquals(0.0, xs.get(0), 1e-9, "starts at p0");
    for (int i = 1; i < xs.size(); i++) {
      assertTrue(xs.get(i) > xs.get(i - 1), "x grows: " + xs);
      assertTrue(curve.micros().get(i) >= curve.micros().get(i - 1), "latency grows: " + curve.micros());
    }
    assertEquals(4.0, xs.get(xs.size() - 1), 1e-9, "the maximum at log10(count)");
    assertEquals(10_000, curve.micros().get(xs.size() - 1), 10, "the maximum");
    // Uniform from 1 to 10000 us: the value at percentile p is 10000 p, and x = 2 is p99.
    for (int i = 1; i < xs.size() - 1; i++) {
      double p = 1 - Math.pow(10, -xs.get(i));
      assertEquals(10_000 * p, curve.micros().get(i), 10_000 * p * 0.001 + 2, "at x = " + xs.get(i));
    }
    assertTrue(xs.stream().anyMatch(x -> x > 1.9 && x < 2.1) && xs.stream().anyMatch(x -> x > 2.9 && x < 3.1),
        "points around p99 and p99.9: " + xs);
  }

  @Test
  void shouldRenderACurveOfOneRequestBetweenWholeTicks() {
    Histogram one = new Histogram(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    one.recordValue(5_000_000);
    PercentileCurve curve = PercentileCurve.of(one);

    byte[] png = PercentileCurve.chart("t", "ms").series("one", curve.xs(), curve.in("ms")).png(400, 300);

    assertTrue(png.length > 0);
  }

  @Test
  void shouldDrawNothingForNoRequests() {
    PercentileCurve curve = PercentileCurve.of(new Histogram(3));
    assertEquals(List.of(), curve.xs());
  }
}
