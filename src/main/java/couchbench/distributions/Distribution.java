package couchbench.distributions;

import static java.util.stream.Collectors.joining;

import java.util.Arrays;
import java.util.Locale;

/**
 * YCSB's request distributions (CoreWorkload's {@code requestdistribution}): which key numbers reads, updates, scans
 * and read-modify-writes choose. {@link KeyChoosers} draws them.
 */
public enum Distribution {
  /** Zipfian popularity (YCSB's constant: 0.99) scattered over the key space: YCSB's scrambled zipfian. */
  ZIPFIAN,
  /** Every existing key alike. */
  UNIFORM,
  /** The newest keys most popular: a zipfian draw counted back from the last acknowledged insert. */
  LATEST,
  /** 0.8 of the operations on 0.2 of the keys (the lowest numbers), uniform within each part. */
  HOTSPOT,
  /** The keys in order, 0 to records - 1, then again from 0. */
  SEQUENTIAL,
  /**
   * Exponentially fewer draws the older the key, counted back from the last acknowledged insert: the exponential's
   * 95th percentile at records x 0.8571428571 keys back.
   */
  EXPONENTIAL;

  /**
   * @param property the system property's name, without -D (e.g. {@code distribution})
   * @param value its value: a distribution's name in lower case
   * @return the distribution
   * @throws IllegalArgumentException with one line naming the property and the allowed values when it is none
   */
  public static Distribution parse(String property, String value) {
    for (Distribution distribution : values()) {
      if (distribution.lowerCase().equals(value)) {
        return distribution;
      }
    }
    throw new IllegalArgumentException("-D" + property + "=" + value + ": not a distribution; allowed: "
        + Arrays.stream(values()).map(Distribution::lowerCase).collect(joining(", ")));
  }

  /** @return the name as the property gives it, e.g. {@code zipfian} */
  public String lowerCase() {
    return name().toLowerCase(Locale.ROOT);
  }
}
