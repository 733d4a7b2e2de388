package couchbench.couchdb;

import couchbench.targets.CouchNodes;
import io.gatling.javaapi.core.Session;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Which node of a cluster each request goes to, and what each node answered. Gatling's HTTP protocol, given several
 * base URLs, pins each virtual user to one of them, round robin, and keeps it in a session attribute of its own
 * ({@link #GATLING_BASE_URL}, read by its requests); with -Dcouchdb.spread=request, {@link #beforeRequest} sets that
 * attribute to the next node before every request. Around each request the node is noted, the reply's status and time
 * counted for it ({@link #replied}), and a request that got no reply counted as failed there ({@link #afterRequest}).
 * One routing per set of nodes in the JVM, as a run has one cluster.
 */
public final class NodeRouting {

  /**
   * The session attribute Gatling 3.15's HTTP protocol keeps a virtual user's base URL in, when it has several
   * (io.gatling.http.cache.BaseUrlSupport: the private attribute "http.cache.baseUrl"). ClusterIT proves that the
   * requests go where it says.
   */
  static final String GATLING_BASE_URL = "gatling.http.cache.baseUrl";

  private static final String REQUEST = "couchbench.nodeRequest";
  private static final Map<List<String>, NodeRouting> ROUTINGS = new ConcurrentHashMap<>();

  private final CouchNodes nodes;
  private final Map<String, NodeTally> tallies = new HashMap<>();
  private final AtomicLong next = new AtomicLong();

  /** A virtual user's request in flight: its node, when it went, whether a reply came. */
  private static final class InFlight {
    NodeTally node;
    long sentNanos;
    boolean replied;
  }

  private NodeRouting(CouchNodes nodes) {
    this.nodes = nodes;
    nodes.urls().forEach(url -> tallies.put(url, new NodeTally(url)));
  }

  /**
   * @param nodes the cluster's nodes
   * @return their routing, the same for the same nodes
   */
  public static NodeRouting of(CouchNodes nodes) {
    return ROUTINGS.computeIfAbsent(nodes.urls(), urls -> new NodeRouting(nodes));
  }

  /** @return each node's figures so far, in the order of -Dcouchdb.url */
  public List<NodeTally.Figures> figures() {
    return nodes.urls().stream().map(url -> tallies.get(url).figures()).toList();
  }

  Session beforeRequest(Session session) {
    Session routed = nodes.spreadPerRequest()
        ? session.set(GATLING_BASE_URL, nodes.urls().get((int) (next.getAndIncrement() % nodes.urls().size())))
        : session;
    InFlight request = routed.contains(REQUEST) ? routed.get(REQUEST) : new InFlight();
    // Gatling keeps the base URL in the session only when it has several.
    request.node = tallies.get(nodes.cluster() ? routed.getString(GATLING_BASE_URL) : nodes.urls().get(0));
    request.replied = false;
    request.node.sent(System.currentTimeMillis());
    request.sentNanos = System.nanoTime();
    return routed.contains(REQUEST) ? routed : routed.set(REQUEST, request);
  }

  int replied(int status, Session session) {
    InFlight request = session.get(REQUEST);
    request.replied = true;
    request.node.replied(status, System.nanoTime() - request.sentNanos, System.currentTimeMillis());
    return status;
  }

  Session afterRequest(Session session) {
    InFlight request = session.get(REQUEST);
    if (!request.replied) {
      request.node.noReply(System.currentTimeMillis());
    }
    return session;
  }
}
