package couchbench.trend;

import couchbench.startup.SettingsException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What -Dtrend judges: series a long run should hold flat, each with the rise an hour it may have, e.g.
 * {@code -Dtrend=rss:+5%/h,p99:+10%/h}. A series is every column of the run's seconds.csv that its name stands for.
 *
 * @param rules the series and their thresholds, in the order given
 */
record TrendPlan(List<Rule> rules) {

  /**
   * One judged series.
   *
   * @param series its name, one of {@link #SERIES}
   * @param percentAnHour the most it may rise an hour, in % of its mean over the run
   */
  record Rule(String series, double percentAnHour) {

    /** @return whether a column of seconds.csv is of this series */
    boolean covers(String column) {
      return SERIES.get(series).columns().test(column);
    }

    /** @return how often its series has a value, e.g. "second" */
    String each() {
      return SERIES.get(series).each();
    }
  }

  /**
   * A series by name.
   *
   * @param what what it is
   * @param columns which columns of seconds.csv are it
   * @param each how often it has a value: "second", or "minute" for a figure of each whole minute
   */
  record Series(String what, Predicate<String> columns, String each) {

    Series(String what, Predicate<String> columns) {
      this(what, columns, "second");
    }
  }

  /** Every series -Dtrend knows, by the name it takes. */
  static final Map<String, Series> SERIES = series();

  private static final Pattern RULE = Pattern.compile("([a-z0-9]+):\\+?(\\d+(?:\\.\\d+)?)%/h");

  /**
   * @param value -Dtrend's value
   * @return the plan; empty when -Dtrend is not given
   * @throws SettingsException naming the part that does not parse, and what is expected
   */
  static Optional<TrendPlan> parse(Optional<String> value) {
    if (value.isEmpty()) {
      return Optional.empty();
    }
    List<Rule> rules = new ArrayList<>();
    for (String part : value.get().split(",", -1)) {
      Matcher rule = RULE.matcher(part.strip());
      if (!rule.matches()) {
        throw new SettingsException("-Dtrend=" + value.get() + ": '" + part + "' is not SERIES:+N%/h: give e.g."
            + " -Dtrend=rss:+5%/h,p99:+10%/h (series: " + String.join(", ", SERIES.keySet()) + ")");
      }
      if (!SERIES.containsKey(rule.group(1))) {
        throw new SettingsException("-Dtrend=" + value.get() + ": no series '" + rule.group(1) + "': give one of "
            + String.join(", ", SERIES.keySet()));
      }
      rules.add(new Rule(rule.group(1), Double.parseDouble(rule.group(2))));
    }
    return Optional.of(new TrendPlan(List.copyOf(rules)));
  }

  private static Map<String, Series> series() {
    Map<String, Series> all = new LinkedHashMap<>();
    all.put("rss", new Series("each local server's resident memory",
        column -> column.endsWith(" resident memory (MB)")));
    all.put("erlang", new Series("each CouchDB node's Erlang memory", column -> column.endsWith(" erlang memory (MB)")));
    all.put("processes", new Series("each CouchDB node's Erlang processes",
        column -> column.endsWith(" erlang processes (count)")));
    all.put("databases", new Series("the databases open at each CouchDB node",
        column -> column.endsWith(" open databases (count)")));
    all.put("files", new Series("the files open at each CouchDB node", column -> column.endsWith(" open files (count)")));
    all.put("queued", new Series("the messages queued at each CouchDB node's processes",
        column -> column.endsWith(" messages queued (queued)")));
    all.put("heap", new Series("the load generator's heap after garbage collection",
        column -> column.equals("load generator heap after GC (MB)")));
    all.put("stored", new Series("the bytes memcache's items hold", column -> column.equals("memcache stored (MB)")));
    all.put("connections", new Series("the connections open at each server", column -> column.endsWith(" (open)")));
    all.put("p99", new Series("the load's requests' p99 in each minute",
        column -> column.equals("p99 per minute (ms)"), "minute"));
    return all;
  }
}
