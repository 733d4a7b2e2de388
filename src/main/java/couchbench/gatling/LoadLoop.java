package couchbench.gatling;

import couchbench.startup.LoadEnd;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;

/** The loop of a load that runs for -Dduration, shared by the simulations that run one. */
public final class LoadLoop {

  private LoadLoop() {}

  /**
   * Each user sends its chain back to back for the duration, a begun chain finished, or until the run ends its load
   * sooner ({@link LoadEnd}): then each user leaves after the chain it is in. The check is the loop's own condition,
   * not an action of its own: no step added to each transaction.
   *
   * @param users the scenario
   * @param duration -Dduration
   * @param each one transaction or operation
   * @return the scenario with its loop
   */
  public static ScenarioBuilder during(ScenarioBuilder users, Duration duration, ChainBuilder each) {
    return users.asLongAsDuring(session -> !LoadEnd.reached(), duration, false).on(each);
  }
}
