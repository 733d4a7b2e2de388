package couchbench.variants;

import couchbench.startup.SettingsException;
import java.util.Locale;

/**
 * A setting of a CouchDB server, as {@code /_node/<node>/_config/<section>/<key>} names it.
 *
 * @param section e.g. "couchdb"
 * @param key e.g. "js_engine"
 */
record ConfigKey(String section, String key) {

  /**
   * @param setting a variant's setting, e.g. "config.couchdb.js_engine"
   * @return its section and key
   * @throws SettingsException when it does not name both, or names a secret
   */
  static ConfigKey named(String setting) {
    String rest = setting.substring(Variant.CONFIG.length());
    int dot = rest.indexOf('.');
    if (dot <= 0 || dot == rest.length() - 1 || !rest.matches("[A-Za-z0-9_.-]+")) {
      throw new SettingsException("-Dvariants: " + setting + " is not a CouchDB setting: give config.<section>.<key>,"
          + " e.g. config.couchdb.max_dbs_open=1000");
    }
    ConfigKey key = new ConfigKey(rest.substring(0, dot), rest.substring(dot + 1));
    // Their values would be written to the page and the restore file.
    String lower = key.toString().toLowerCase(Locale.ROOT);
    if (key.section.equals("admins") || lower.contains("password") || lower.contains("secret")
        || key.section.startsWith("jwt_keys")) {
      throw new SettingsException("-Dvariants: " + setting + " is a secret, which couchbench does not vary: its"
          + " values would be written to the page and to the restore file");
    }
    return key;
  }

  /** @return the path below {@code /_node/<node>/_config}, e.g. "/couchdb/js_engine" */
  String path() {
    return "/" + section + "/" + key;
  }

  @Override
  public String toString() {
    return "[" + section + "] " + key;
  }
}
