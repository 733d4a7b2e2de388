package couchbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.pause;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.function.ToLongFunction;

/**
 * How a paced virtual user waits for its operation's intended start (-Dtarget, -Dtargets, -Drate), and when it counts
 * as late. Every paced load goes by intended starts on a schedule fixed from its start, not by Gatling's pace(), which
 * starts each iteration a period after the last one started: one that is late then delays all that follow it, and the
 * load runs below its rate without a late operation to show it.
 */
public final class Pacing {

  /**
   * An operation that started this much after its intended start counts as late: the load generator's lag, above the
   * pause's resolution of 1 ms.
   */
  public static final long LATE_NANOS = 2_000_000;

  private Pacing() {}

  /**
   * @param intendedStart the session's next intended start, System.nanoTime()
   * @return a pause until then, none when it is already past; rounded up to Gatling's millisecond, so that an operation
   *     never starts before its time
   */
  public static ChainBuilder untilIntendedStart(ToLongFunction<Session> intendedStart) {
    return doIf(session -> intendedStart.applyAsLong(session) - System.nanoTime() > 0).then(pause(session ->
        Duration.ofMillis((intendedStart.applyAsLong(session) - System.nanoTime() + 999_999) / 1_000_000)));
  }
}
