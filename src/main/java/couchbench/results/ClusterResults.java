package couchbench.results;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.HdrHistogram.Histogram;

/**
 * A run over several CouchDB nodes: what couchbench counted of each node on the requests' path (Gatling's request
 * names stay as they are, the node is couchbench's figure), what the cluster says of itself, and each database's
 * doc_count read through every node.
 *
 * @param spread "user" (each virtual user pinned to one node, round robin) or "request" (each request to the next)
 * @param members the cluster's nodes as GET /_membership names them; empty when the servers do not say
 * @param nodes each node loaded, in the order of -Dcouchdb.url
 * @param docCounts each database of the run, its doc_count through each node after the load
 * @param shards each database created, its shard ranges with the nodes holding a copy (GET /db/_shards); empty when
 *     the server has no such endpoint
 * @param notes what could not be read, e.g. a stand-in without _shards
 */
public record ClusterResults(String spread, List<String> members, List<Node> nodes, List<DocCount> docCounts,
    Map<String, JsonNode> shards, List<String> notes) {

  /**
   * One node's figures.
   *
   * @param url its base URL
   * @param count requests sent to it
   * @param ok 2xx replies but 202
   * @param accepted 202 Accepted replies: written, but fewer copies than the quorum confirmed it ("accepted below
   *     quorum"), a success counted apart
   * @param ko replies of status 400 or more, and requests without a reply
   * @param noReply of the ko, those that got no reply (the node down, a connection cut)
   * @param ratePerSecond count over the time from its first request to its last reply
   * @param latency the 2xx replies' times, taken by couchbench from the request's start to its status check
   * @param outages each time it stopped answering, and when it answered again
   * @param systemBefore its GET /_node/_local/_system and _stats figures before the load; null when n/a
   * @param systemAfter the same after the load; null when n/a
   */
  public record Node(String url, long count, long ok, long accepted, long ko, long noReply, double ratePerSecond,
      Results.Latency latency, List<Outage> outages, Map<String, Double> systemBefore,
      Map<String, Double> systemAfter) {

    /**
     * @param url the node's base URL
     * @param ok 2xx replies but 202
     * @param accepted 202 replies
     * @param ko failed requests
     * @param noReply of those, the ones without a reply
     * @param firstMillis its first request's start, epoch ms
     * @param lastMillis its last reply or failure, epoch ms
     * @param okNanos the 2xx replies' times in nanoseconds
     * @param outages the outages
     * @param systemBefore its figures before the load, or null
     * @param systemAfter its figures after the load, or null
     * @return the node's figures
     */
    public static Node of(String url, long ok, long accepted, long ko, long noReply, long firstMillis,
        long lastMillis, Histogram okNanos, List<Outage> outages, Map<String, Double> systemBefore,
        Map<String, Double> systemAfter) {
      long count = ok + accepted + ko;
      return new Node(url, count, ok, accepted, ko, noReply, Entries.rate(count, lastMillis - firstMillis),
          Entries.latency(okNanos), outages, systemBefore, systemAfter);
    }
  }

  /**
   * A time a node stopped answering: from its first request without a reply to its next reply.
   *
   * @param from ISO-8601 UTC
   * @param until ISO-8601 UTC; null when it did not answer again before the load ended
   */
  public record Outage(String from, String until) {

    /**
     * @param fromMillis epoch ms
     * @param untilMillis epoch ms; 0 when it did not answer again
     * @return the outage
     */
    public static Outage of(long fromMillis, long untilMillis) {
      return new Outage(Instant.ofEpochMilli(fromMillis).toString(),
          untilMillis == 0 ? null : Instant.ofEpochMilli(untilMillis).toString());
    }
  }

  /**
   * A database's doc_count through each node: once the cluster has settled, they agree.
   *
   * @param database its name
   * @param byNode the count through each node's URL, in the order of -Dcouchdb.url
   */
  public record DocCount(String database, Map<String, Long> byNode) {

    /** @return whether every node gave the same count */
    public boolean agree() {
      return byNode.values().stream().distinct().count() <= 1;
    }
  }

  /**
   * @param page the page
   * @return the page with the nodes, their table, the doc counts through each node and the shards
   */
  public SummaryPage addTo(SummaryPage page) {
    String loaded = nodes.size() == 1 ? "1 node loaded" : nodes.size() + " nodes loaded, " + (spread.equals("request")
        ? "each request to the next node" : "each virtual user pinned to one node, round robin");
    SummaryPage out = nodes.isEmpty() ? page : page.line("Cluster: " + loaded
        + (members.isEmpty() ? "; the servers do not say which nodes their cluster has"
            : "; the cluster's nodes (GET /_membership): " + String.join(", ", members)) + ".");
    for (String note : notes) {
      out = out.line(note);
    }
    if (!nodes.isEmpty()) {
      out = perNode(out);
    }
    List<String> figures = nodes.stream().filter(node -> node.systemBefore() != null).findFirst()
        .map(node -> List.copyOf(node.systemBefore().keySet())).orElse(List.of());
    if (!figures.isEmpty()) {
      List<String> columns = new ArrayList<>(List.of("node"));
      columns.addAll(figures);
      Table system = Table.of(columns.toArray(String[]::new));
      for (Node node : nodes) {
        List<Object> row = new ArrayList<>(List.of(node.url()));
        figures.forEach(figure -> row.add(beforeAfter(node, figure)));
        system = system.row(row.toArray());
      }
      out = out.table("each node, before / after the load (GET /_node/_local/_system and _stats)", system);
    }
    for (DocCount count : docCounts) {
      String each = String.join(", ", count.byNode().entrySet().stream()
          .map(node -> node.getValue() + " through " + node.getKey()).toList());
      out = count.agree() ? out.line("doc_count of " + count.database() + " is the same through every node: " + each
          + ".") : out.warning("doc_count of " + count.database() + " DIFFERS between the nodes: " + each
          + " (the cluster had not settled, or a node lost writes).");
    }
    for (Map.Entry<String, JsonNode> database : shards.entrySet()) {
      List<String> ranges = new ArrayList<>();
      database.getValue().fields().forEachRemaining(range -> ranges.add(range.getKey() + " on "
          + String.join(", ", StreamSupport.stream(range.getValue().spliterator(), false).map(JsonNode::asText)
              .toList())));
      out = out.line("Shards of " + database.getKey() + " (GET /" + database.getKey() + "/_shards): "
          + String.join("; ", ranges) + ".");
    }
    return out;
  }

  /** e.g. "500 / 512": the figure before the load, then after it; n/a where the node did not say. */
  private static String beforeAfter(Node node, String figure) {
    return figure(node.systemBefore(), figure) + " / " + figure(node.systemAfter(), figure);
  }

  private static String figure(Map<String, Double> figures, String name) {
    Double value = figures == null ? null : figures.get(name);
    return value == null ? "n/a" : value % 1 == 0 ? String.valueOf(value.longValue()) : String.valueOf(value);
  }

  private SummaryPage perNode(SummaryPage page) {
    SummaryPage out = page;
    Table table = Table.of("node", "requests", "OK", "accepted below quorum (202)", "failed", "of them no reply",
        "rate (/s)", "p50 (us)", "p90 (us)", "p99 (us)", "max (us)", "down");
    for (Node node : nodes) {
      Results.Latency l = node.latency();
      table = table.row(node.url(), node.count(), node.ok(), node.accepted(), node.ko(), node.noReply(),
          node.ratePerSecond(), l.p50(), l.p90(), l.p99(), l.max(), node.outages().isEmpty() ? "never"
              : String.join("; ", node.outages().stream().map(o -> "from " + o.from() + " to "
                  + (o.until() == null ? "the end of the load" : o.until())).toList()));
      for (Outage outage : node.outages()) {
        out = out.warning("Node " + node.url() + " stopped answering at " + outage.from() + (outage.until() == null
            ? " and did not answer again before the load ended" : " and answered again at " + outage.until())
            + ": its users' requests failed meanwhile, the other nodes' went on.");
      }
    }
    long accepted = nodes.stream().mapToLong(Node::accepted).sum();
    if (accepted > 0) {
      out = out.warning(accepted + " writes were accepted below quorum (202 Accepted): stored, but fewer copies"
          + " than the quorum (w) confirmed them when CouchDB answered; counted as OK by Gatling, apart here.");
    }
    out = out.line("Per node: what couchbench counted of each node's requests (Gatling's request names stay as they"
        + " are); the times are the 2xx replies', from the request's start to its status check.")
        .table("per node", table);
    return out;
  }
}
