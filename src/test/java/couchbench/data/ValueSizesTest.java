package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.SettingsException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueSizesTest {

  private static final int KEYS = 20_000;

  @Test
  void shouldGiveEveryKeyTheOneSize() {
    ValueSizes sizes = ValueSizes.parse("100");

    assertEquals(100, sizes.forKey(Md5Keys.of(0)));
    assertEquals(100, sizes.largest());
    assertEquals("100 bytes", sizes.describe());
  }

  @Test
  void shouldDrawARangeUniformlyAndTheSameSizeForTheSameKey() {
    ValueSizes sizes = ValueSizes.parse("32-4096");
    long total = 0;
    int lowest = Integer.MAX_VALUE;
    int highest = 0;
    for (int i = 0; i < KEYS; i++) {
      int size = sizes.forKey(Md5Keys.of(i));
      assertEquals(size, sizes.forKey(Md5Keys.of(i)), "a reader knows the size from the key");
      total += size;
      lowest = Math.min(lowest, size);
      highest = Math.max(highest, size);
    }

    assertTrue(lowest >= 32 && lowest < 64, "down to the low end: " + lowest);
    assertTrue(highest <= 4096 && highest > 4064, "up to the high end: " + highest);
    assertEquals(2064, total / (double) KEYS, 2064 * 0.02, "the mean of a uniform draw");
    assertEquals("32-4096 bytes (uniform)", sizes.describe());
    assertEquals(4096, sizes.largest());
  }

  @Test
  void shouldDrawSizesWithTheirWeights() {
    ValueSizes sizes = ValueSizes.parse("100:7, 1000:2,10000:1");
    Map<Integer, Integer> drawn = new HashMap<>();
    for (int i = 0; i < KEYS; i++) {
      drawn.merge(sizes.forKey(Md5Keys.of(i)), 1, Integer::sum);
    }

    assertEquals(3, drawn.size(), drawn.toString());
    assertEquals(0.7, drawn.get(100) / (double) KEYS, 0.015, drawn.toString());
    assertEquals(0.2, drawn.get(1000) / (double) KEYS, 0.015, drawn.toString());
    assertEquals(0.1, drawn.get(10000) / (double) KEYS, 0.015, drawn.toString());
    assertEquals("100, 1000 or 10000 bytes (weights 7:2:1)", sizes.describe());
    assertEquals(10000, sizes.largest());
  }

  @Test
  void shouldRefuseWhatDoesNotParseInOneLineNamingTheForms() {
    assertEquals("-DvalueSize=4096-32: the low end is above the high end: give -DvalueSize=32-4096",
        assertThrows(SettingsException.class, () -> ValueSizes.parse("4096-32")).getMessage());
    String forms = ": give bytes (100), a range drawn uniformly (32-4096) or sizes with weights (100:7,1000:2,10000:1)";
    for (Map.Entry<String, String> bad : Map.of("1k", "-DvalueSize=1k does not parse" + forms,
        "100:0", "-DvalueSize=100:0 does not parse ('100:0' is not size:weight, a weight of 1 or more)" + forms,
        "100:7,x", "-DvalueSize=100:7,x does not parse ('x' is not size:weight, a weight of 1 or more)" + forms)
        .entrySet()) {
      assertEquals(bad.getValue(), assertThrows(SettingsException.class, () -> ValueSizes.parse(bad.getKey()))
          .getMessage());
    }
    assertEquals("-DvalueSize=100:1,200000000:1: 200000000 bytes is more than couchbench writes under one key,"
        + " 134217728 (128 MB): give smaller sizes", assertThrows(SettingsException.class,
            () -> ValueSizes.parse("100:1,200000000:1")).getMessage());
  }
}
