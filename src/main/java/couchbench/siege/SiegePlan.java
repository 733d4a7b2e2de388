package couchbench.siege;

import couchbench.couchdb.DatabaseNames;
import couchbench.targets.Settings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Seed 000's load shape, as siege ran it: {@code users} concurrent users, each sending requests
 * back to back for {@code duration}, no think time (a closed model).
 *
 * @param users concurrent users
 * @param duration how long each user keeps sending
 * @param valueSize bytes of random text per written value
 * @param keyFile the CSV key file written by the write simulations and read by the read ones
 * @param database the CouchDB database written and read by CouchSet and CouchGet
 */
public record SiegePlan(int users, Duration duration, int valueSize, Path keyFile, String database) {

  /** The seed's author's production peak was 180 concurrent users; 50 is gentler on a laptop. */
  public static final int DEFAULT_USERS = 50;

  /** Seconds per run by default. */
  public static final int DEFAULT_DURATION = 60;

  /** Bytes per value by default. */
  public static final int DEFAULT_VALUE_SIZE = 100;

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings users, duration (seconds), valueSize, keyFile, database
   * @param defaultKeyFile the key file when -DkeyFile is not given
   * @return the plan
   */
  public static SiegePlan from(Settings settings, String defaultKeyFile) {
    return new SiegePlan(
        settings.intValue("users", DEFAULT_USERS, 1),
        Duration.ofSeconds(settings.intValue("duration", DEFAULT_DURATION, 1)),
        settings.intValue("valueSize", DEFAULT_VALUE_SIZE, 0),
        Path.of(settings.get("keyFile", defaultKeyFile)),
        DatabaseNames.fromSettings(settings, "couchbench_siege"));
  }
}
