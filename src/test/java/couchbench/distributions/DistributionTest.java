package couchbench.distributions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DistributionTest {

  @Test
  void shouldParseEachDistributionByItsLowerCaseName() {
    for (Distribution distribution : Distribution.values()) {
      assertEquals(distribution, Distribution.parse("distribution", distribution.lowerCase()));
    }
    assertEquals("zipfian", Distribution.ZIPFIAN.lowerCase());
  }

  @Test
  void shouldStopOnAnUnknownDistributionWithOneLineNamingThePropertyAndTheAllowedValues() {
    for (String value : new String[] {"foo", "Zipfian", "", null}) {
      assertEquals("-Ddistribution=" + value + ": not a distribution; allowed: zipfian, uniform, latest, hotspot,"
          + " sequential, exponential",
          assertThrows(IllegalArgumentException.class, () -> Distribution.parse("distribution", value)).getMessage());
    }
  }
}
