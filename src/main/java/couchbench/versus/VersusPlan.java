package couchbench.versus;

import couchbench.siege.SiegePlan;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Path;

/**
 * CouchVsMemcache's parameters: seed 000's load shape for every step, the fields of a record, and
 * the folder of the four key files the write phase produces.
 *
 * @param siege users, duration (of each step), value size, database
 * @param fields F, the fields of a record; 0 leaves record assembly out
 * @param keyDir where memcache.csv, couchdb.csv, memcache-records.csv and couchdb-records.csv go (one injector of
 *     several writes and reads back its own, named with its index; with several rounds, each round its own, in
 *     {@code round-<r>/})
 */
public record VersusPlan(SiegePlan siege, int fields, Path keyDir) {

  /** The seed's author's example of a record: ten fields. */
  public static final int DEFAULT_FIELDS = 10;

  /** The largest F: the F keys of a multi-get of md5 keys stay well inside one request line. */
  public static final int MAX_FIELDS = 100;

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings users, duration, valueSize, database, fields, keyDir, warmup (seconds)
   * @return the plan
   */
  public static VersusPlan from(Settings settings) {
    int fields = settings.intValue("fields", DEFAULT_FIELDS, 0);
    if (fields > MAX_FIELDS) {
      throw new SettingsException("-Dfields=" + fields + " is more than " + MAX_FIELDS
          + ": give -Dfields between 0 (no record assembly) and " + MAX_FIELDS);
    }
    SiegePlan siege = SiegePlan.from(settings);
    if (siege.curve().isPresent()) {
      throw new SettingsException("-Dtargets: CouchVsMemcache runs its phases back to back, as the seed did; for the"
          + " curve of both systems give Workload -Dtargets, or CouchGet and MemGet one after the other");
    }
    if (siege.expiry().expires()) {
      throw new SettingsException("-Dexpiry: CouchVsMemcache reads back every value it wrote, on both systems, and"
          + " CouchDB's documents do not expire; give -Dexpiry to MemSet, and MemGet reads its keys as they expire");
    }
    return new VersusPlan(siege, fields, Path.of(settings.get("keyDir", "data/keys")));
  }

  /** @return whether records are written and read */
  public boolean records() {
    return fields > 0;
  }

  /**
   * @param round the round, 1 to R
   * @return the key file of the round's memcache set step; with one round, the one MemGet reads by default
   */
  public Path memcacheKeys(int round) {
    return keyFile(round, "memcache.csv");
  }

  /**
   * @param round the round, 1 to R
   * @return the key file of the round's couchdb set step; with one round, the one CouchGet reads by default
   */
  public Path couchdbKeys(int round) {
    return keyFile(round, "couchdb.csv");
  }

  /**
   * @param round the round, 1 to R
   * @return the key file of the round's acknowledged memcache records
   */
  public Path memcacheRecordKeys(int round) {
    return keyFile(round, "memcache-records.csv");
  }

  /**
   * @param round the round, 1 to R
   * @return the key file of the round's acknowledged CouchDB records
   */
  public Path couchdbRecordKeys(int round) {
    return keyFile(round, "couchdb-records.csv");
  }

  // Each round writes its own key files and reads them back: with several, round r's go to <keyDir>/round-r/.
  private Path keyFile(int round, String name) {
    Path dir = siege.rounds().repeated() ? keyDir.resolve("round-" + round) : keyDir;
    return siege.injector().ownFile(dir.resolve(name));
  }
}
