package couchbench.memcache;

/**
 * Where the memcache protocol sends each request's time in nanoseconds, beside what it reports to
 * Gatling (whose stats engine keeps whole milliseconds, while a memcache get takes about 0.1 ms).
 * Called once per request, after its reply was judged, on the virtual user's event loop, or with a
 * shared pool possibly on another one (that of the pool's connection). Keep it cheap and
 * thread-safe.
 */
@FunctionalInterface
public interface MemcacheTimings {

  /** Records nothing: the default. */
  MemcacheTimings NONE = (requestName, ok, nanos) -> {};

  /**
   * One request's outcome.
   *
   * @param requestName the request's name in the report
   * @param ok whether it counted as OK
   * @param nanos from the request handed to its connection to its reply decoded, by System.nanoTime
   */
  void record(String requestName, boolean ok, long nanos);
}
