package couchbench.results;

/**
 * What a run's simulation.log says about one request name: how many requests passed and failed,
 * the response times of those that passed, and when the first was sent and the last answered.
 * Times are Gatling's, whole milliseconds relative to the run's start. Immutable: {@link #with}
 * returns a new tally.
 *
 * @param ok requests that passed their checks
 * @param ko requests that failed
 * @param okMillisSum the sum of the response times of the requests that passed
 * @param okMinMillis the shortest of those response times ({@link Integer#MAX_VALUE} when ok is 0)
 * @param okMaxMillis the longest of those response times (-1 when ok is 0)
 * @param firstStartMillis when the first request of this name was sent, passed or failed
 * @param lastEndMillis when the last request of this name ended, passed or failed
 */
public record RequestTally(
    long ok, long ko, long okMillisSum, int okMinMillis, int okMaxMillis, long firstStartMillis, long lastEndMillis) {

  /** No request yet. */
  public static final RequestTally EMPTY =
      new RequestTally(0, 0, 0, Integer.MAX_VALUE, -1, Long.MAX_VALUE, Long.MIN_VALUE);

  /**
   * Adds one request.
   *
   * @param startMillis when it was sent
   * @param endMillis when it ended
   * @param passed whether it passed its checks
   * @return a new tally with the request counted; this one is unchanged
   */
  public RequestTally with(long startMillis, long endMillis, boolean passed) {
    long first = Math.min(firstStartMillis, startMillis);
    long last = Math.max(lastEndMillis, endMillis);
    if (!passed) {
      return new RequestTally(ok, ko + 1, okMillisSum, okMinMillis, okMaxMillis, first, last);
    }
    int millis = (int) (endMillis - startMillis);
    return new RequestTally(ok + 1, ko, okMillisSum + millis, Math.min(okMinMillis, millis),
        Math.max(okMaxMillis, millis), first, last);
  }

  /** @return the milliseconds from the first request sent to the last one ended; 0 without requests */
  public long spanMillis() {
    return ok + ko == 0 ? 0 : lastEndMillis - firstStartMillis;
  }
}
