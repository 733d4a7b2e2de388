package couchbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.pause;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.function.ToLongFunction;

/** How a paced virtual user waits for its operation's intended start (-Dtarget, -Dtargets, -Drate). */
public final class Pacing {

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
