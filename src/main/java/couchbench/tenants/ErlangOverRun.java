package couchbench.tenants;

import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.resources.CouchResources;
import couchbench.resources.ServerSampler;
import couchbench.results.ServerSeries;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * CouchDB's Erlang processes and memory over a Tenants run, each node's: read once from its {@code
 * _node/_local/_system} before the users are created (the run's settings, couch_peruser's among them, set by then),
 * then taken from the servers' sampling, which reads the same each second of the load. Each database a node opens
 * (a shard) runs processes of its own, so the users' databases, and couch_peruser making them, show here.
 */
final class ErlangOverRun {

  // The servers' sampling's columns (ServerSampler): "<node> erlang processes (count)", "<node> erlang memory (MB)".
  private static final String PROCESSES = " erlang processes (count)";
  private static final String MEMORY = " erlang memory (MB)";
  private static final double MB = 1024 * 1024;
  private static final double NOT_READ = -1;

  private final CouchTarget couchdb;
  private final TenantsPlan.Databases databases;
  private final Map<String, Double> processesBefore = new LinkedHashMap<>();
  private final Map<String, Double> memoryBefore = new LinkedHashMap<>();

  /**
   * @param couchdb the server, with a server admin's login ({@code _system} needs one)
   * @param databases the run's -Ddatabases, which the page names beside the figures
   */
  ErlangOverRun(CouchTarget couchdb, TenantsPlan.Databases databases) {
    this.couchdb = couchdb;
    this.databases = databases;
  }

  /**
   * Reads each node's Erlang processes and memory now: before the users and their databases are made. A node that
   * does not answer leaves its figures not read, as the sampling leaves a second it misses.
   */
  void readBeforeUsers() {
    List<String> urls = couchdb.nodes().urls();
    for (String url : urls) {
      String node = ServerSampler.couchNodeName(urls, url);
      try {
        new CouchDbClient(couchdb.node(url)).nodeSystem().ifPresent(system -> {
          processesBefore.put(node, system.path("process_count").asDouble(NOT_READ));
          memoryBefore.put(node, CouchResources.erlangMemory(system) / MB);
        });
      } catch (CouchDbException e) {
        Console.say("tenants: " + node + "'s Erlang processes and memory not read before the users: "
            + e.getMessage());
      }
    }
  }

  /**
   * @param servers the servers' figures second by second, as sampled during the load
   * @param loadStartMillis the load's start on the run's clock
   * @return each node's processes and memory: before the users, at the load's start, its peak and its end, and each
   *     second of the load; none where the sampling did not read them (-DsampleServers.systemEvery=0)
   */
  TenantsFigures.Erlang figures(ServerSeries servers, long loadStartMillis) {
    return new TenantsFigures.Erlang(databases.word(), gauges(servers, loadStartMillis, PROCESSES, processesBefore),
        gauges(servers, loadStartMillis, MEMORY, memoryBefore));
  }

  private static List<TenantsFigures.Gauge> gauges(ServerSeries servers, long loadStartMillis, String suffix,
      Map<String, Double> before) {
    List<TenantsFigures.Gauge> gauges = new ArrayList<>();
    for (String column : servers.columns()) {
      if (!column.endsWith(suffix)) {
        continue;
      }
      String node = column.substring(0, column.length() - suffix.length());
      TenantsFigures.Series series = TenantsFigures.Series.of(column.substring(0, column.lastIndexOf(" (")),
          servers.bySecond(column, loadStartMillis));
      if (series.values().isEmpty()) {
        continue;
      }
      List<Double> values = series.values();
      gauges.add(new TenantsFigures.Gauge(series, Optional.ofNullable(before.get(node)).orElse(NOT_READ),
          values.get(0), values.stream().mapToDouble(Double::doubleValue).max().orElseThrow(),
          values.get(values.size() - 1)));
    }
    return gauges;
  }
}
