package couchbench.results;

import java.util.Map;

/**
 * One of a load's own figures second by second, for seconds.csv beside its requests' (CacheAside's hit ratio): one
 * figure of one kind, never a sum of kinds (issue 59), with a value for each second that has one; a second without
 * (no read in it, for a ratio of reads) is an empty cell, not a 0.
 *
 * @param name its column's name, its unit in brackets, e.g. "hit ratio (hits over reads)"
 * @param bySecond its value by second into the load, as seconds.csv numbers its rows
 */
public record LoadColumn(String name, Map<Long, Double> bySecond) {

  public LoadColumn {
    bySecond = Map.copyOf(bySecond);
  }
}
