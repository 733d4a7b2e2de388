package couchbench.variants;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One variant of -Dvariants: its name and the settings in which it differs from the others, each either a setting of
 * a CouchDB server ({@code config.<section>.<key>}, applied through {@code _config} before its rounds) or a target
 * property of its rounds' runs ({@code couchdb.url}, {@code memcache.servers}).
 *
 * @param name its name, e.g. "quickjs"
 * @param settings its settings as given, in order; empty for the servers as they are
 */
public record Variant(String name, Map<String, String> settings) {

  /** How a variant's setting names a CouchDB server's configuration: {@code config.<section>.<key>}. */
  static final String CONFIG = "config.";

  public Variant {
    settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
  }

  /** @return its server settings, by section and key, in order */
  Map<ConfigKey, String> config() {
    Map<ConfigKey, String> config = new LinkedHashMap<>();
    settings.forEach((name, value) -> {
      if (name.startsWith(CONFIG)) {
        config.put(ConfigKey.named(name), value);
      }
    });
    return config;
  }

  /** @return the properties its rounds' runs are given: every setting but the servers' configuration */
  Map<String, String> properties() {
    Map<String, String> properties = new LinkedHashMap<>(settings);
    properties.keySet().removeIf(name -> name.startsWith(CONFIG));
    return properties;
  }

  /** @return e.g. "quickjs (config.couchdb.js_engine=quickjs)", or "a (the servers as they are)" */
  String describe() {
    return name + " (" + (settings.isEmpty() ? "the servers as they are"
        : settings.entrySet().stream().map(setting -> setting.getKey() + "=" + setting.getValue())
            .collect(Collectors.joining(", "))) + ")";
  }
}
