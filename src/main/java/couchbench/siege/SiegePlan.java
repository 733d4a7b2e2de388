package couchbench.siege;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.DatabaseNames;
import couchbench.targets.Settings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Seed 000's load shape, as siege ran it: {@code users} concurrent users, each sending requests
 * back to back for {@code duration}, no think time (a closed model).
 *
 * @param users concurrent users
 * @param duration how long each user keeps sending
 * @param valueSize bytes of random text per written value
 * @param database the CouchDB database written and read by CouchSet and CouchGet
 */
public record SiegePlan(int users, Duration duration, int valueSize, String database) {

  /** The seed's author's production peak was 180 concurrent users; 50 is gentler on a laptop. */
  public static final int DEFAULT_USERS = 50;

  /** Seconds per run by default. */
  public static final int DEFAULT_DURATION = 60;

  /** Bytes per value by default. */
  public static final int DEFAULT_VALUE_SIZE = 100;

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings users, duration (seconds), valueSize, database
   * @return the plan
   */
  public static SiegePlan from(Settings settings) {
    return new SiegePlan(
        settings.intValue("users", DEFAULT_USERS, 1),
        Duration.ofSeconds(settings.intValue("duration", DEFAULT_DURATION, 1)),
        settings.intValue("valueSize", DEFAULT_VALUE_SIZE, 0),
        DatabaseNames.fromSettings(settings, "couchbench_siege"));
  }

  /**
   * Seed 000's siege user: sends back to back for the plan's duration. An iteration that has begun
   * is finished, as siege finishes the transaction in flight: Gatling's default would leave a
   * record's group after some of its requests, and count that part as a whole record.
   *
   * @param iteration one transaction: a request, or a record's group of requests
   * @return the chain each user runs
   */
  public ChainBuilder backToBack(ChainBuilder iteration) {
    return during(duration, false).on(iteration);
  }

  /**
   * One siege run: the plan's users, all started at once, each running the chain.
   *
   * @param scenario the scenario's name in the report
   * @param chain what each user does, e.g. a {@link #backToBack} loop
   * @return the population, for setUp or andThen
   */
  public PopulationBuilder users(String scenario, ChainBuilder chain) {
    return scenario(scenario).exec(chain).injectOpen(atOnceUsers(users));
  }

  /**
   * The CSV key file a single-step simulation writes or reads.
   *
   * @param settings keyFile
   * @param defaultKeyFile the key file when -DkeyFile is not given
   * @return the key file's path
   */
  public static Path keyFile(Settings settings, String defaultKeyFile) {
    return Path.of(settings.get("keyFile", defaultKeyFile));
  }
}
