package couchbench.run;

import couchbench.results.RunOutput;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import java.util.List;
import java.util.Optional;

/**
 * What a run's extensions see of it: the settings, the servers it loads, the CouchDB databases its load uses, and its
 * output, where they put what they found.
 *
 * @param simulation the simulation's name
 * @param settings the run's settings
 * @param couchdb the CouchDB loaded; empty in a run of memcache alone
 * @param memcache the memcache servers loaded
 * @param couchDatabases the databases the load uses, still there when the load ends; the first is the one background
 *     work works on
 * @param output the run's output
 */
public record RunContext(String simulation, Settings settings, Optional<CouchTarget> couchdb,
    List<MemcacheTarget> memcache, List<String> couchDatabases, RunOutput output) {

  public RunContext {
    memcache = List.copyOf(memcache);
    couchDatabases = List.copyOf(couchDatabases);
  }
}
