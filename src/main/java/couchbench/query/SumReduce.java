package couchbench.query;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How the sum view ({@code view-owner-status}) adds up amounts: CouchDB's built-in {@code _sum}, run in Erlang, or the
 * same sum written in JavaScript, which the server's JavaScript engine runs as it builds the view (CouchDB keeps each
 * B-tree node's reduction) and as it answers a reduced query. The second is how a JavaScript engine's reduces are
 * compared (-Dvariants on config.couchdb.js_engine).
 */
public enum SumReduce {
  BUILTIN("builtin", "_sum"),
  // sum() is the view server's own helper (CouchDB's and PouchDB's alike).
  JAVASCRIPT("javascript", "function (keys, values, rereduce) { return sum(values); }");

  private final String value;
  private final String function;

  SumReduce(String value, String function) {
    this.value = value;
    this.function = function;
  }

  /** @return its name in -Dreduce */
  public String value() {
    return value;
  }

  /** @return the view's reduce */
  String function() {
    return function;
  }

  /**
   * @param given -Dreduce's value
   * @return the reduce it names
   * @throws QueryException naming the values it takes
   */
  static SumReduce of(String given) {
    String name = given.trim().toLowerCase(Locale.ROOT);
    return Arrays.stream(values()).filter(reduce -> reduce.value.equals(name)).findFirst()
        .orElseThrow(() -> new QueryException("-Dreduce=" + given + ": give " + Arrays.stream(values())
            .map(SumReduce::value).collect(Collectors.joining(" or ")) + " (CouchDB's _sum, or the same sum in"
            + " JavaScript)"));
  }
}
