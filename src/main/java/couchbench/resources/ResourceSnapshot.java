package couchbench.resources;

import couchbench.report.Table;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Resource figures of servers at one moment, or the change between two moments: figure name to
 * value, in a fixed order, empty where the server does not offer the figure (shown as n/a). Values
 * are exact decimals, so that a delta of counters or of CPU seconds loses nothing. Immutable.
 *
 * @param figures value by figure name, in the order they are shown
 */
public record ResourceSnapshot(Map<String, Optional<BigDecimal>> figures) {

  /** Shown for a figure the server does not offer. */
  public static final String NOT_OFFERED = "n/a";

  /**
   * When the snapshot was taken, in seconds of this JVM's monotonic clock: meaningless alone, its change is the length
   * of the phase between two snapshots, which turns a process's CPU time into its CPU %.
   */
  public static final String CLOCK = "clock (s)";

  private static final String CPU_TIME = " cpu time (s)";

  public ResourceSnapshot {
    figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
  }

  /**
   * One figure.
   *
   * @param name the figure's name, e.g. {@link MemcacheResources#CURR_ITEMS}
   * @return its value; empty when the server does not offer it or the snapshot has no such figure
   */
  public Optional<BigDecimal> value(String name) {
    return figures.getOrDefault(name, Optional.empty());
  }

  /**
   * Both snapshots' figures in one, e.g. memcache's and CouchDB's.
   *
   * @param other more figures; on a name both have, other's wins
   * @return a snapshot with this one's figures, then other's
   */
  public ResourceSnapshot and(ResourceSnapshot other) {
    Map<String, Optional<BigDecimal>> both = new LinkedHashMap<>(figures);
    both.putAll(other.figures);
    return new ResourceSnapshot(both);
  }

  /**
   * The change since an earlier snapshot: this value minus the earlier one, figure by figure.
   *
   * @param before the earlier snapshot
   * @return a snapshot of the differences, with this one's figures; n/a where either side is
   */
  public ResourceSnapshot minus(ResourceSnapshot before) {
    Map<String, Optional<BigDecimal>> delta = new LinkedHashMap<>();
    figures.forEach((name, after) ->
        delta.put(name, after.flatMap(a -> before.value(name).map(a::subtract))));
    return new ResourceSnapshot(delta);
  }

  /**
   * The table of a phase: each figure before, after, and the change; when both snapshots carry their {@link #CLOCK},
   * the phase's length and each process's CPU % over it (100% is one core) follow, as changes only.
   *
   * @param before the snapshot taken before the phase
   * @param after the snapshot taken after it
   * @return columns figure, before, after, delta; one row per figure of after
   */
  public static Table table(ResourceSnapshot before, ResourceSnapshot after) {
    ResourceSnapshot delta = after.minus(before);
    Table table = Table.of("figure", "before", "after", "delta");
    for (String name : after.figures.keySet()) {
      if (!name.equals(CLOCK)) {
        table = table.row(name, cell(before.value(name)), cell(after.value(name)), cell(delta.value(name)));
      }
    }
    Optional<BigDecimal> seconds = delta.value(CLOCK).filter(length -> length.signum() > 0);
    if (seconds.isPresent()) {
      table = table.row("phase length (s)", "", "", seconds.get());
      for (String name : after.figures.keySet()) {
        if (name.endsWith(CPU_TIME)) {
          String percent = name.substring(0, name.length() - CPU_TIME.length()) + " cpu % of the phase";
          table = table.row(percent, "", "", cell(delta.value(name).map(cpu -> cpu.multiply(BigDecimal.valueOf(100))
              .divide(seconds.get(), 1, RoundingMode.HALF_EVEN))));
        }
      }
    }
    return table;
  }

  /** @return a {@link #CLOCK} reading now */
  static BigDecimal clockNow() {
    return BigDecimal.valueOf(System.nanoTime(), 9);
  }

  private static Object cell(Optional<BigDecimal> value) {
    return value.<Object>map(v -> v).orElse(NOT_OFFERED);
  }
}
