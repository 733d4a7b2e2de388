package couchbench.trend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LineFitTest {

  @Test
  void shouldFindTheSlopeOfALineUnderNoiseWithinItsInterval() {
    Random random = new Random(42);
    double[] xs = new double[120];
    double[] ys = new double[120];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = i;
      ys[i] = 50 + 0.25 * i + random.nextGaussian();
    }

    LineFit fit = LineFit.of(xs, ys);

    assertEquals(0.25, fit.slope(), 0.02);
    assertTrue(fit.slopeLow() < 0.25 && 0.25 < fit.slopeHigh(), fit.slopeLow() + " to " + fit.slopeHigh());
    assertEquals(50, fit.at(0), 1);
  }

  @Test
  void shouldGiveAFlatSeriesAnIntervalAroundZero() {
    Random random = new Random(7);
    double[] xs = new double[60];
    double[] ys = new double[60];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = i;
      ys[i] = 100 + random.nextGaussian();
    }

    LineFit fit = LineFit.of(xs, ys);

    assertTrue(fit.slopeLow() < 0 && 0 < fit.slopeHigh(), fit.slopeLow() + " to " + fit.slopeHigh());
  }

  @Test
  void shouldGiveStudentsTAsTheTablesDo() {
    assertEquals(2.228, LineFit.t95(10), 0.002);
    assertEquals(2.048, LineFit.t95(28), 0.001);
    assertEquals(1.984, LineFit.t95(100), 0.001);
  }

  @Test
  void shouldRefuseTooFewPoints() {
    assertThrows(IllegalArgumentException.class, () -> LineFit.of(new double[29], new double[29]));
  }
}
