package couchbench.targets;

import couchbench.startup.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How many shards and copies the databases a run creates get (-Dq, -Dn: {@code PUT /db?q=&n=}), and how many copies
 * the load's writes and reads wait for (-Dw, -Dr: {@code ?w=} on every POST, PUT and DELETE of the load, {@code ?r=}
 * on every GET and HEAD, which CouchDB reads where it takes them, documents, and ignores elsewhere). Not set,
 * CouchDB's own defaults apply (3.x: q=2, n=3, w and r a majority of n).
 *
 * @param q shards per database; empty when not set
 * @param n copies of each shard
 * @param w copies a write waits for
 * @param r copies a read asks
 */
public record DatabaseOptions(Optional<Integer> q, Optional<Integer> n, Optional<Integer> w, Optional<Integer> r) {

  /** None set: CouchDB's defaults. */
  public static final DatabaseOptions DEFAULTS =
      new DatabaseOptions(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

  /**
   * @param settings the run's settings
   * @return -Dq, -Dn, -Dw and -Dr, each at least 1
   * @throws couchbench.startup.SettingsException when one is not a whole number of at least 1
   */
  static DatabaseOptions from(Settings settings) {
    return new DatabaseOptions(read(settings, "q"), read(settings, "n"), read(settings, "w"), read(settings, "r"));
  }

  private static Optional<Integer> read(Settings settings, String name) {
    return settings.value(name).map(given -> settings.intValue(name, 0, 1));
  }

  /** @return the query a database is created with, e.g. "?q=2&n=3"; empty when neither is set */
  public String createQuery() {
    List<String> given = new ArrayList<>();
    q.ifPresent(value -> given.add("q=" + value));
    n.ifPresent(value -> given.add("n=" + value));
    return given.isEmpty() ? "" : "?" + String.join("&", given);
  }

  /** @return whether -Dw or -Dr is set: the load's requests then carry them */
  public boolean quorum() {
    return w.isPresent() || r.isPresent();
  }

  /** @return e.g. "databases created with q=2&n=3, w=3"; empty when none is set */
  public Optional<String> describe() {
    List<String> given = new ArrayList<>();
    if (!createQuery().isEmpty()) {
      given.add("databases created with " + createQuery().substring(1));
    }
    w.ifPresent(value -> given.add("w=" + value));
    r.ifPresent(value -> given.add("r=" + value));
    return given.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", given));
  }
}
