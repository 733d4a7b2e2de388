package couchbench.results;

/**
 * What a request name's entries are, for the run's seconds: the load's own requests, or entries Gatling's report holds
 * beside them that are not requests and would blur their rate and latency if counted with them (a write's arrival at
 * a listener, timed from its acknowledgement; a listener's verdict, timed over its whole wait). Each kind has its own
 * series, columns and charts; a name not said otherwise is a {@link #REQUEST}.
 */
public enum SeriesKind {

  /** The load's requests, timed from their send to their reply. */
  REQUEST("requests", "", "the load's requests"),
  /** A write seen by a listener of _changes, timed from its acknowledgement to its arrival. */
  NOTIFICATION("notifications", "notification ", "writes notified to the listeners, each timed from its"
      + " acknowledgement to its arrival"),
  /** A write seen elsewhere (a replica), timed from its acknowledgement to its arrival there. */
  LAG("lags", "lag ", "writes seen on their replica, each timed from its acknowledgement to its arrival"),
  /** A verdict on a whole wait: a listener or a target that got everything (OK) or missed some (KO). */
  VERDICT("verdicts", "verdict ", "verdicts (a listener or a target that got everything, or not), each timed over"
      + " its whole wait");

  private final String counted;
  private final String prefix;
  private final String what;

  SeriesKind(String counted, String prefix, String what) {
    this.counted = counted;
    this.prefix = prefix;
    this.what = what;
  }

  /** @return the entries counted, plural, e.g. "notifications": the name of its count column and charts */
  public String counted() {
    return counted;
  }

  /** @return what its series hold, in words for the page */
  public String what() {
    return what;
  }

  /** @return its column of entries that ended in a second, e.g. "notifications (/s)" */
  String countColumn() {
    return counted + " (/s)";
  }

  /** @return its column of failed entries in a second, e.g. "failed (/s)", "notifications failed (/s)" */
  String failedColumn() {
    return this == REQUEST ? "failed (/s)" : counted + " failed (/s)";
  }

  /**
   * @param figure e.g. "p99"
   * @return its column of the OK entries' figure in a second, in ms, e.g. "p99 (ms)", "notification p99 (ms)"
   */
  String timeColumn(String figure) {
    return named(figure) + " (ms)";
  }

  /**
   * @param what e.g. "latency second by second"
   * @return it of this kind: the same for the load's requests, "notification latency second by second"
   */
  String named(String what) {
    return prefix + what;
  }
}
