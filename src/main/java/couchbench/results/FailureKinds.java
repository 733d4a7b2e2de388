package couchbench.results;

import java.util.Map;

/**
 * Failed requests counted by message, as Gatling's error table counts them, with a bound: a message that names a
 * key or a document would otherwise grow the tally with the run.
 */
final class FailureKinds {

  /** Distinct messages kept per request name; later ones count under {@link #OTHER}. */
  static final int MAX_KINDS = 50;
  static final String OTHER = "(other messages)";

  private FailureKinds() {}

  /** Counts one failure under its message, or under {@link #OTHER} once the tally holds {@link #MAX_KINDS}. */
  static void count(Map<String, Long> tally, String message) {
    String kind = tally.containsKey(message) || tally.size() < MAX_KINDS ? message : OTHER;
    tally.merge(kind, 1L, Long::sum);
  }
}
