package couchbench.versus;

import couchbench.couchdb.CouchDbException;
import couchbench.resources.CouchResources;
import couchbench.resources.MemcacheResources;
import couchbench.resources.ResourceSnapshot;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.TargetException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Both servers' own figures at the moments between phases (memcache stats, CouchDB's database and
 * node figures, the local servers' CPU time and data directory). A moment whose figures cannot be
 * read is kept as a failure message, so the run goes on and the summary says why a column is empty.
 */
final class ServerFigures {

  private final MemcacheTarget memcache;
  private final CouchTarget couchdb;
  private final String database;
  private final Map<String, VersusSummary.Reading> taken = new LinkedHashMap<>();
  private final List<String> failures = new ArrayList<>();

  ServerFigures(MemcacheTarget memcache, CouchTarget couchdb, String database) {
    this.memcache = memcache;
    this.couchdb = couchdb;
    this.database = database;
  }

  /**
   * Takes both servers' figures now.
   *
   * @param moment e.g. "before the write phase"
   */
  synchronized void take(String moment) {
    try {
      ResourceSnapshot both = MemcacheResources.snapshot(memcache).and(CouchResources.snapshot(couchdb, database));
      taken.put(moment, VersusSummary.Reading.of(both, System.currentTimeMillis()));
    } catch (TargetException | CouchDbException | UncheckedIOException e) {
      failures.add("the servers' figures " + moment + " could not be read: " + e.getMessage());
    }
  }

  /** @return the figures of a moment; null when they could not be read */
  synchronized VersusSummary.Reading at(String moment) {
    return taken.get(moment);
  }

  /** @return why figures are missing, one line per moment that failed */
  synchronized List<String> failures() {
    return List.copyOf(failures);
  }
}
