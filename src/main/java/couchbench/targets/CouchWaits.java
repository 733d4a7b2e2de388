package couchbench.targets;

import couchbench.startup.Settings;
import java.time.Duration;
import java.util.Optional;

/**
 * How long couchbench's own requests to CouchDB (setup, checks, reads of its figures) wait for a reply, and how long an
 * index build is followed: a build is not one request to time out, it ends when its index answers.
 *
 * @param reply how long a request waits for its reply, -Dcouchdb.timeout seconds (30)
 * @param indexBuild the longest an index build is followed, -DindexTimeout seconds; empty (the default) for as long
 *     as it takes
 */
public record CouchWaits(Duration reply, Optional<Duration> indexBuild) {

  /** The setting of {@link #reply}. */
  public static final String REPLY_SETTING = "couchdb.timeout";

  /** The setting of {@link #indexBuild}. */
  public static final String INDEX_BUILD_SETTING = "indexTimeout";

  /** Neither set: 30 s a reply, index builds followed until they end. */
  public static final CouchWaits DEFAULTS = new CouchWaits(Duration.ofSeconds(30), Optional.empty());

  /**
   * @param settings the run's settings
   * @return -Dcouchdb.timeout and -DindexTimeout, each a whole number of seconds of at least 1
   * @throws couchbench.startup.SettingsException when one is not
   */
  static CouchWaits from(Settings settings) {
    return new CouchWaits(Duration.ofSeconds(settings.intValue(REPLY_SETTING, 30, 1)),
        settings.value(INDEX_BUILD_SETTING).map(given -> Duration.ofSeconds(settings.intValue(INDEX_BUILD_SETTING, 0,
            1))));
  }
}
