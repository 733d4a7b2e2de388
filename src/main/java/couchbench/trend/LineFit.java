package couchbench.trend;

/**
 * A straight line fitted to a series by least squares, with its slope's confidence interval.
 *
 * <p>The interval treats the points as independent; a run's seconds are not quite (a second that was slow makes the
 * next likelier to be), so it is narrower than the truth: the threshold a verdict compares it with, not the interval,
 * keeps small slopes from being called rises.
 *
 * @param points how many points it was fitted to
 * @param slope the line's slope, per unit of x
 * @param intercept the line's value at x = 0
 * @param slopeError the slope's standard error
 * @param mean the points' mean value
 */
record LineFit(int points, double slope, double intercept, double slopeError, double mean) {

  /** The fewest points a line is fitted to: fewer leave the interval too wide to say anything. */
  static final int MIN_POINTS = 30;

  /**
   * @param xs the points' x
   * @param ys the points' y, as many
   * @return the line
   * @throws IllegalArgumentException with fewer than {@link #MIN_POINTS} points, or xs all alike
   */
  static LineFit of(double[] xs, double[] ys) {
    int n = xs.length;
    if (n != ys.length || n < MIN_POINTS) {
      throw new IllegalArgumentException(n + " points: a line needs at least " + MIN_POINTS);
    }
    double meanX = 0;
    double meanY = 0;
    for (int i = 0; i < n; i++) {
      meanX += xs[i] / n;
      meanY += ys[i] / n;
    }
    double sxx = 0;
    double sxy = 0;
    for (int i = 0; i < n; i++) {
      sxx += (xs[i] - meanX) * (xs[i] - meanX);
      sxy += (xs[i] - meanX) * (ys[i] - meanY);
    }
    if (sxx == 0) {
      throw new IllegalArgumentException("every point at one x: no slope");
    }
    double slope = sxy / sxx;
    double intercept = meanY - slope * meanX;
    double residuals = 0;
    for (int i = 0; i < n; i++) {
      double off = ys[i] - (intercept + slope * xs[i]);
      residuals += off * off;
    }
    return new LineFit(n, slope, intercept, Math.sqrt(residuals / (n - 2) / sxx), meanY);
  }

  /** @return the line's value at x */
  double at(double x) {
    return intercept + slope * x;
  }

  /** @return the slope's 95% interval's lower end */
  double slopeLow() {
    return slope - t95(points - 2) * slopeError;
  }

  /** @return the slope's 95% interval's upper end */
  double slopeHigh() {
    return slope + t95(points - 2) * slopeError;
  }

  /**
   * Student's t for a two-sided 95% interval with these degrees of freedom, by the Cornish-Fisher expansion around
   * the normal quantile: within 0.001 of the tables' values from 10 degrees of freedom up (a fit has 28 or more).
   */
  static double t95(int degreesOfFreedom) {
    double z = 1.959964;
    double df = degreesOfFreedom;
    return z + (z * z * z + z) / (4 * df) + (5 * Math.pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * df * df)
        + (3 * Math.pow(z, 7) + 19 * Math.pow(z, 5) + 17 * z * z * z - 15 * z) / (384 * df * df * df);
  }
}
