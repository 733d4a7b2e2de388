package couchbench.startup;

import java.time.Duration;

/**
 * Where a run ends its load before -Dduration is up: a run extension that has seen what the load was there for (the
 * background work ended, -DbackgroundAfter) asks for the end, and the loops of -Dduration
 * ({@code couchbench.gatling.LoadLoop}) end each user after the request it is in. One run per JVM, as Gatling runs.
 */
public final class LoadEnd {

  private static final long NOT_ASKED = Long.MAX_VALUE;
  private static volatile long endNanos = NOT_ASKED;

  private LoadEnd() {}

  /**
   * Asks the load to end this long from now; of several asks, the earliest end stands.
   *
   * @param after the load still to run
   */
  public static synchronized void after(Duration after) {
    long end = System.nanoTime() + after.toNanos();
    if (endNanos == NOT_ASKED || end - endNanos < 0) {
      endNanos = end;
    }
  }

  /** @return whether the end asked for has come; false while none was asked */
  public static boolean reached() {
    long end = endNanos;
    return end != NOT_ASKED && System.nanoTime() - end >= 0;
  }
}
