package couchbench.data;

import couchbench.startup.SettingsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * -DvalueSize: the bytes of text under each key, one size ({@code 100}), a range drawn uniformly ({@code 32-4096}) or
 * sizes with weights ({@code 100:7,1000:2,10000:1}), as memtier's --data-size, --data-size-range and
 * --data-size-list. A key's size follows from the key alone, so that a reader knows the size, and the text, that its
 * writer wrote: writers and readers given the same -DvalueSize agree without a word.
 */
public final class ValueSizes {

  private static final Pattern ONE = Pattern.compile("\\d{1,9}");
  private static final Pattern RANGE = Pattern.compile("(\\d{1,9})-(\\d{1,9})");
  private static final Pattern WEIGHTED = Pattern.compile("(\\d{1,9}):(\\d{1,6})");
  /** The most bytes written under one key: a value larger than any memcache server's item size (-I at most 1 GB). */
  public static final int MAX_BYTES = 128 * 1024 * 1024;
  private static final String FORMS = "give bytes (100), a range drawn uniformly (32-4096) or sizes with weights"
      + " (100:7,1000:2,10000:1)";

  private final String given;
  private final int[] sizes;
  private final long[] upTo; // weighted: each size's cumulative weight; empty for one size or a range
  private final boolean range;

  private ValueSizes(String given, int[] sizes, long[] upTo, boolean range) {
    this.given = given;
    this.sizes = sizes;
    this.upTo = upTo;
    this.range = range;
  }

  /**
   * @param bytes one size for every key
   * @return that size
   */
  public static ValueSizes of(int bytes) {
    return new ValueSizes(String.valueOf(bytes), new int[] {bytes}, new long[0], false);
  }

  /**
   * @param given -DvalueSize's value
   * @return the sizes
   * @throws SettingsException naming the value and the forms it takes, or a range whose low end is above its high end
   */
  public static ValueSizes parse(String given) {
    ValueSizes sizes = read(given);
    if (sizes.largest() > MAX_BYTES) {
      throw new SettingsException("-DvalueSize=" + given + ": " + sizes.largest() + " bytes is more than couchbench"
          + " writes under one key, " + MAX_BYTES + " (128 MB): give smaller sizes");
    }
    return sizes;
  }

  private static ValueSizes read(String given) {
    String value = given.strip();
    if (ONE.matcher(value).matches()) {
      return of(Integer.parseInt(value));
    }
    Matcher range = RANGE.matcher(value);
    if (range.matches()) {
      int low = Integer.parseInt(range.group(1));
      int high = Integer.parseInt(range.group(2));
      if (low > high) {
        throw new SettingsException("-DvalueSize=" + given + ": the low end is above the high end: give -DvalueSize="
            + high + "-" + low);
      }
      return new ValueSizes(value, new int[] {low, high}, new long[0], true);
    }
    List<int[]> weighted = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      Matcher sizeWeight = WEIGHTED.matcher(part.strip());
      if (!sizeWeight.matches() || Integer.parseInt(sizeWeight.group(2)) == 0) {
        throw new SettingsException("-DvalueSize=" + given + " does not parse" + (value.contains(":")
            ? " ('" + part.strip() + "' is not size:weight, a weight of 1 or more)" : "") + ": " + FORMS);
      }
      weighted.add(new int[] {Integer.parseInt(sizeWeight.group(1)), Integer.parseInt(sizeWeight.group(2))});
    }
    int[] sizes = new int[weighted.size()];
    long[] upTo = new long[weighted.size()];
    long total = 0;
    for (int i = 0; i < sizes.length; i++) {
      sizes[i] = weighted.get(i)[0];
      total += weighted.get(i)[1];
      upTo[i] = total;
    }
    return new ValueSizes(value, sizes, upTo, false);
  }

  /**
   * @param key a key
   * @return the bytes of its value, the same for the same key in every run and every JVM
   */
  public int forKey(String key) {
    if (sizes.length == 1) {
      return sizes[0];
    }
    long draw = mix(key.hashCode());
    if (range) {
      return (int) (sizes[0] + Math.floorMod(draw, (long) sizes[1] - sizes[0] + 1));
    }
    long point = Math.floorMod(draw, upTo[upTo.length - 1]);
    int i = 0;
    while (point >= upTo[i]) {
      i++;
    }
    return sizes[i];
  }

  /**
   * @param key a key
   * @return the text a writer stores under it, and a reader expects: {@link RandomText#forKey} at the key's size
   */
  public String textFor(String key) {
    return RandomText.forKey(key, forKey(key));
  }

  /** @return the largest size a key may get */
  public int largest() {
    int largest = 0;
    for (int size : sizes) {
      largest = Math.max(largest, size);
    }
    return largest;
  }

  /** @return whether every key gets the same size */
  public boolean fixed() {
    return sizes.length == 1;
  }

  /** @return e.g. "100 bytes", "32-4096 bytes (uniform)", "100, 1000 or 10000 bytes (weights 7:2:1)" */
  public String describe() {
    if (fixed()) {
      return sizes[0] + " bytes";
    }
    if (range) {
      return sizes[0] + "-" + sizes[1] + " bytes (uniform)";
    }
    List<String> each = new ArrayList<>();
    List<String> weights = new ArrayList<>();
    for (int i = 0; i < sizes.length; i++) {
      each.add(String.valueOf(sizes[i]));
      weights.add(String.valueOf(upTo[i] - (i == 0 ? 0 : upTo[i - 1])));
    }
    return String.join(", ", each.subList(0, each.size() - 1)) + " or " + each.get(each.size() - 1) + " bytes"
        + String.format(Locale.ROOT, " (weights %s)", String.join(":", weights));
  }

  @Override
  public String toString() {
    return given;
  }

  // A key's String.hashCode (specified by the JDK, so alike everywhere) spread over 64 bits: MurmurHash3's finalizer.
  private static long mix(int hash) {
    long h = hash;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb93e1a85ec53L;
    h ^= h >>> 33;
    return h;
  }
}
