package couchbench.simulation;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.NodeRouting;
import couchbench.couchdb.NodeTally;
import couchbench.results.ClusterResults;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run over several CouchDB nodes (or with -Dq/-Dn), reported per node: each node's figures before the load, then
 * after it what each node was sent and answered, each database's doc_count through every node, and its shards.
 */
final class ClusterReport {

  /** The figures of GET /_node/_local/_system kept, by their path in its reply. */
  private static final List<String> SYSTEM = List.of("run_queue", "process_count", "memory/processes",
      "memory/binary", "io_input", "io_output");

  /** The counters of GET /_node/_local/_stats kept, by their path in its reply. */
  private static final List<String> STATS = List.of("couchdb/httpd/requests/value",
      "couchdb/database_reads/value", "couchdb/database_writes/value");

  /** How long the doc_counts through the nodes may take to agree after the load. */
  private static final Duration SETTLING = Duration.ofSeconds(10);

  private final CouchTarget target;
  private final Map<String, Map<String, Double>> before = new LinkedHashMap<>();

  private ClusterReport(CouchTarget target) {
    this.target = target;
  }

  /**
   * @param target the run's CouchDB
   * @return a report that has read each node's figures; empty for one node without -Dq, -Dn, -Dw or -Dr (with them,
   *     the report of one node shows its databases' shards)
   */
  static Optional<ClusterReport> before(CouchTarget target) {
    if (!target.nodes().cluster() && target.options().describe().isEmpty()) {
      return Optional.empty();
    }
    ClusterReport report = new ClusterReport(target);
    if (target.countedPerNode()) {
      target.nodes().urls().forEach(url -> report.before.put(url, system(target.node(url))));
    }
    return Optional.of(report);
  }

  /**
   * @param databases the databases the run loaded, still there
   * @return the figures per node
   */
  ClusterResults after(List<String> databases) {
    List<String> notes = new ArrayList<>();
    boolean counted = target.countedPerNode();
    if (counted && before.values().stream().allMatch(figures -> figures == null)) {
      notes.add("The nodes do not answer GET /_node/_local/_system nor _stats (pouchdb-server, the stand-in, has no"
          + " such endpoints): no server figures per node.");
    }
    List<ClusterResults.Node> nodes = new ArrayList<>();
    List<NodeTally.Figures> perNode = counted ? NodeRouting.of(target.nodes()).figures() : List.of();
    for (NodeTally.Figures node : perNode) {
      nodes.add(ClusterResults.Node.of(node.url(), node.ok(), node.accepted(), node.failed(), node.noReply(),
          node.firstMillis(), node.lastMillis(), node.okNanos(),
          node.outages().stream().map(o -> ClusterResults.Outage.of(o[0], o[1])).toList(), before.get(node.url()),
          system(target.node(node.url()))));
    }
    CouchDbClient first = new CouchDbClient(target);
    Map<String, JsonNode> shards = new LinkedHashMap<>();
    List<ClusterResults.DocCount> docCounts = new ArrayList<>();
    for (String database : databases) {
      first.shards(database).ifPresent(ranges -> shards.put(database, ranges));
      if (target.nodes().cluster()) {
        docCounts.add(docCounts(database));
      }
    }
    if (shards.isEmpty() && !databases.isEmpty()) {
      notes.add("The server does not answer GET /db/_shards (pouchdb-server, the stand-in, has no such endpoint,"
          + " nor q and n): no shards shown.");
    }
    docCounts.stream().filter(count -> !count.agree()).forEach(count -> Console.say("doc_count of "
        + count.database() + " differs between the nodes " + SETTLING.toSeconds() + " s after the load: "
        + count.byNode() + " (the page says so)"));
    return new ClusterResults(target.nodes().spreadPerRequest() ? "request" : "user", target.nodes().members(),
        nodes, docCounts, shards, notes);
  }

  /**
   * The database's doc_count through every node; read again, every second, while they differ, for at most
   * {@link #SETTLING}: a cluster that has settled counts the same through every node.
   */
  private ClusterResults.DocCount docCounts(String database) {
    long until = System.nanoTime() + SETTLING.toNanos();
    ClusterResults.DocCount counts = docCountsNow(database);
    while (!counts.agree() && System.nanoTime() < until) {
      try {
        Thread.sleep(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return counts;
      }
      counts = docCountsNow(database);
    }
    return counts;
  }

  private ClusterResults.DocCount docCountsNow(String database) {
    Map<String, Long> byNode = new LinkedHashMap<>();
    for (String url : target.nodes().urls()) {
      try {
        byNode.put(url, new CouchDbClient(target.node(url)).docCount(database));
      } catch (CouchDbException e) {
        Console.say("doc_count of " + database + " through " + url + " n/a: " + e.getMessage());
      }
    }
    return new ClusterResults.DocCount(database, byNode);
  }

  /** The node's figures (_system, then _stats); null when it has none to give (no such endpoints, or no answer). */
  private static Map<String, Double> system(CouchTarget node) {
    CouchDbClient client = new CouchDbClient(node);
    Map<String, Double> figures = new LinkedHashMap<>();
    try {
      client.nodeSystem().ifPresent(reply -> keep(reply, SYSTEM, figures));
      client.nodeStats().ifPresent(reply -> keep(reply, STATS, figures));
    } catch (CouchDbException e) {
      return null;
    }
    return figures.isEmpty() ? null : figures;
  }

  private static void keep(JsonNode reply, List<String> paths, Map<String, Double> figures) {
    for (String path : paths) {
      JsonNode value = reply.at("/" + path);
      if (value.isNumber()) {
        figures.put(path.replace("/value", "").replace('/', '.'), value.asDouble());
      }
    }
  }
}
