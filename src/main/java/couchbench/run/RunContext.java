package couchbench.run;

import couchbench.results.RunOutput;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import couchbench.targets.MemcacheTarget;
import java.util.List;
import java.util.Optional;

/**
 * What a run's extensions see of it: the settings, the servers it loads, the CouchDB databases and other local server
 * processes its load uses, and its output, where they put what they found.
 *
 * @param simulation the simulation's name
 * @param settings the run's settings
 * @param couchdb the CouchDB loaded; empty in a run of memcache alone
 * @param memcache the memcache servers loaded
 * @param couchDatabases the databases the load uses, still there when the load ends; the first is the one background
 *     work works on
 * @param otherLocalServers the server processes on this machine the load uses besides those it loads
 *     ({@link ExperimentLoad#otherLocalServers}): known once the load is prepared, none in {@link RunExtension#check}
 * @param output the run's output
 */
public record RunContext(String simulation, Settings settings, Optional<CouchTarget> couchdb,
    List<MemcacheTarget> memcache, List<String> couchDatabases, List<LocalServer> otherLocalServers, RunOutput output) {

  public RunContext {
    memcache = List.copyOf(memcache);
    couchDatabases = List.copyOf(couchDatabases);
    otherLocalServers = List.copyOf(otherLocalServers);
  }

  /**
   * @param servers the load's other local server processes, once it is prepared
   * @return this run's context with them
   */
  public RunContext withOtherLocalServers(List<LocalServer> servers) {
    return new RunContext(simulation, settings, couchdb, memcache, couchDatabases, servers, output);
  }
}
