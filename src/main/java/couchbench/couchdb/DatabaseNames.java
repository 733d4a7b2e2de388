package couchbench.couchdb;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;

/** CouchDB's rule for database names, checked before any request: lowercase, starting with a letter. */
public final class DatabaseNames {

  private static final String RULE = "[a-z][a-z0-9_$()+/-]*";

  private DatabaseNames() {}

  /**
   * The database named by {@code -Ddatabase}, or the default.
   *
   * @param settings the run's settings
   * @param defaultName the name when -Ddatabase is not given
   * @return the name
   * @throws SettingsException when CouchDB would refuse the name
   */
  public static String fromSettings(Settings settings, String defaultName) {
    String name = settings.get("database", defaultName);
    if (!name.matches(RULE)) {
      throw new SettingsException("-Ddatabase=" + name + " is not a valid CouchDB database name"
          + " (expected " + RULE + ", e.g. todo)");
    }
    return name;
  }
}
