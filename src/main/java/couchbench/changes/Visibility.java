package couchbench.changes;

import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.ledger.WriteLedger;
import couchbench.results.Histograms;
import couchbench.targets.CouchTarget;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * -Dvisibility=nodes: read-after-write across a cluster's nodes. Each write acknowledged through one node is read
 * through every other node with r=1, again and again, until that node returns the document at the write's revision:
 * the time from the acknowledgement is the lag of that pair of nodes. Every node's failures are counted with when
 * they began and ended, and after the load every acknowledged write is looked for through every node.
 */
final class Visibility {

  private static final String STATE = "changes.visibility";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration IDLE_PAUSE = Duration.ofMillis(5);
  // After a failed read: a node that is down refuses at once, and a reader must not spin on it.
  private static final Duration FAILURE_PAUSE = Duration.ofMillis(100);

  /** A write to find through one node. */
  private record Check(int writer, int seq, String rev, int from, long ackNanos, int polls) {}

  private final ChangesPlan plan;
  private final CouchTarget target;
  private final WriteLedger ledger;
  private final List<String> nodes;
  private final String database;
  private final List<ConcurrentLinkedQueue<Check>> pending = new ArrayList<>();
  private final Histogram[][] lagMicros;
  private final LongAdder[][] polls;
  private final LongAdder[][] notSeen;
  private final NodeFailures[] failures;
  private long loadStart = System.nanoTime();

  /** One node's failed requests: how many, the first and the last. */
  private static final class NodeFailures {
    final LongAdder count = new LongAdder();
    final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
    final AtomicLong last = new AtomicLong(Long.MIN_VALUE);
  }

  /** A reader's state, on its virtual user's thread. */
  private static final class Reader {
    Check check;
    boolean failed;
  }

  Visibility(ChangesPlan plan, CouchTarget target, WriteLedger ledger) {
    this.plan = plan;
    this.target = target;
    this.ledger = ledger;
    this.nodes = target.nodes().urls();
    this.database = plan.databaseNames().get(0);
    int n = nodes.size();
    lagMicros = new Histogram[n][n];
    polls = new LongAdder[n][n];
    notSeen = new LongAdder[n][n];
    failures = new NodeFailures[n];
    for (int from = 0; from < n; from++) {
      pending.add(new ConcurrentLinkedQueue<>());
      failures[from] = new NodeFailures();
      for (int to = 0; to < n; to++) {
        lagMicros[from][to] = new ConcurrentHistogram(3);
        polls[from][to] = new LongAdder();
        notSeen[from][to] = new LongAdder();
      }
    }
  }

  /** The load starts now: failures are said in seconds from here. */
  void loadStarts() {
    loadStart = System.nanoTime();
  }

  /** @return the nodes, each written and read through */
  List<String> nodes() {
    return nodes;
  }

  /** A write acknowledged through a node: to be found through every other one. */
  void acknowledged(int writer, int seq, String rev, int node, long nanos) {
    for (int to = 0; to < nodes.size(); to++) {
      if (to != node) {
        pending.get(to).add(new Check(writer, seq, rev, node, nanos, 0));
      }
    }
  }

  /** A request through a node failed now. */
  void failed(int node) {
    long now = System.nanoTime();
    failures[node].count.increment();
    failures[node].first.accumulateAndGet(now, Math::min);
    failures[node].last.accumulateAndGet(now, Math::max);
  }

  /**
   * @param node the node read through
   * @return a reader's chain: the node's next write to find, read with r=1, found or put back for later, until the
   *     writers are done and nothing is left to find
   */
  ChainBuilder read(int node) {
    String name = "read through node " + (node + 1);
    return exec(session -> session.set(STATE, new Reader()))
        .asLongAs(session -> !ledger.finished() || !pending.get(node).isEmpty() || reader(session).check != null)
        .on(exec(session -> {
          reader(session).check = pending.get(node).poll();
          return session;
        }).doIfOrElse(session -> reader(session).check == null).then(pause(IDLE_PAUSE)).orElse(
            exec(http(name).get(session -> "/" + database + "/" + ChangesPlan.id(reader(session).check.writer(),
                    reader(session).check.seq()) + "?r=1")
                .check(status().in(200, 404), bodyBytes().transformWithSession(this::revision).saveAs(
                    "changes.revisionRead")))
            .exec(session -> judge(session, node))
            .doIf(session -> reader(session).failed).then(pause(FAILURE_PAUSE))));
  }

  private String revision(byte[] body, Session session) {
    try {
      return JSON.readTree(body).path("_rev").asText("");
    } catch (IOException e) {
      return "";
    }
  }

  private Session judge(Session session, int node) {
    long now = System.nanoTime();
    Reader reader = reader(session);
    Check check = reader.check;
    reader.check = null;
    reader.failed = session.isFailed();
    polls[check.from()][node].increment();
    if (reader.failed) {
      failed(node);
    } else if (check.rev().equals(session.getString("changes.revisionRead"))) {
      lagMicros[check.from()][node].recordValue(Math.max(0, now - check.ackNanos()) / 1000);
      return session.markAsSucceeded();
    }
    if (now - check.ackNanos() > plan.quiet().toNanos()) {
      notSeen[check.from()][node].increment();
    } else {
      pending.get(node).add(new Check(check.writer(), check.seq(), check.rev(), check.from(), check.ackNanos(),
          check.polls() + 1));
    }
    return session.markAsSucceeded();
  }

  private static Reader reader(Session session) {
    return session.get(STATE);
  }

  /** @return the lag of every pair of nodes, each node's failures, and what each node misses after the load */
  ChangesFigures.VisibilityFigures figures() {
    List<ChangesFigures.PairFigures> pairs = new ArrayList<>();
    for (int from = 0; from < nodes.size(); from++) {
      for (int to = 0; to < nodes.size(); to++) {
        if (from != to) {
          pairs.add(new ChangesFigures.PairFigures(from + 1, to + 1, lagMicros[from][to].getTotalCount(),
              notSeen[from][to].sum(), polls[from][to].sum(), Histograms.encode(lagMicros[from][to])));
        }
      }
    }
    List<ChangesFigures.NodeFigures> byNode = new ArrayList<>();
    for (int node = 0; node < nodes.size(); node++) {
      NodeFailures failed = failures[node];
      long count = failed.count.sum();
      byNode.add(new ChangesFigures.NodeFigures(node + 1, nodes.get(node), count,
          count == 0 ? -1 : (failed.first.get() - loadStart) / 1e9, count == 0 ? -1 : (failed.last.get() - loadStart)
          / 1e9, missingAfterwards(node)));
    }
    return new ChangesFigures.VisibilityFigures(pairs, byNode);
  }

  // After the load: the acknowledged writes that the node's _all_docs does not list; -1 when it could not be read.
  private long missingAfterwards(int node) {
    CouchReply reply;
    try {
      reply = new CouchDbClient(target.node(nodes.get(node))).get("/" + database + "/_all_docs");
    } catch (RuntimeException e) {
      return -1;
    }
    Set<String> listed = new HashSet<>();
    try {
      for (JsonNode row : JSON.readTree(reply.body()).path("rows")) {
        listed.add(row.path("id").asText());
      }
    } catch (IOException e) {
      return -1;
    }
    if (reply.status() != 200) {
      return -1;
    }
    long missing = 0;
    for (int writer = 0; writer < ledger.writers(); writer++) {
      for (int seq = 0; seq < ledger.writes(); seq++) {
        if (ledger.isAcknowledged(writer, seq) && !listed.contains(ChangesPlan.id(writer, seq))) {
          missing++;
        }
      }
    }
    return missing;
  }
}
