package couchbench.variants;

import couchbench.startup.SettingsException;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A setting of a CouchDB server, as {@code /_node/<node>/_config/<section>/<key>} names it.
 *
 * @param section e.g. "couchdb"
 * @param key e.g. "js_engine"
 */
public record ConfigKey(String section, String key) {

  /** Settings CouchDB reads as it starts: where it listens and where its files are. */
  private static final Set<ConfigKey> READ_AT_START = Set.of(new ConfigKey("chttpd", "port"),
      new ConfigKey("chttpd", "bind_address"), new ConfigKey("couchdb", "database_dir"),
      new ConfigKey("couchdb", "view_index_dir"));

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
    if (key.secret()) {
      throw new SettingsException("-Dvariants: " + setting + " is a secret, which couchbench does not vary: its"
          + " values would be written to the page and to the restore file");
    }
    if (READ_AT_START.contains(key)) {
      throw new SettingsException("-Dvariants: " + setting + " is read as CouchDB starts: a change takes effect only"
          + " after a restart, whose cold server each round would measure; compare two servers instead, each a"
          + " variant's couchdb.url");
    }
    return key;
  }

  /** @return whether its value is a secret: an admin's password hash, a signing secret, a JWT key */
  boolean secret() {
    String lower = toString().toLowerCase(Locale.ROOT);
    return section.equals("admins") || lower.contains("password") || lower.contains("secret")
        || section.startsWith("jwt_keys");
  }

  /**
   * @param value a value of this setting, or empty for CouchDB's built-in default
   * @return the value as a line may show it: a secret's never
   */
  String shown(Optional<String> value) {
    if (value.isEmpty()) {
      return "(its default)";
    }
    return secret() ? "(a secret, not shown)" : value.get();
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
