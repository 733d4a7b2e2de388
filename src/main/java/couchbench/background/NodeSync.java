package couchbench.background;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import couchbench.startup.SettingsException;
import couchbench.targets.CouchTarget;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * nodesync: one node of a cluster restarted ({@code POST /_node/{node}/_restart}), then read through a node the load
 * uses until its copies of the database hold what the other copies do. It is down while its {@code _system} does not
 * answer, back once it answers with an uptime that began after the restart, and caught up once, in two reads in a
 * row, none of its shard copies has fewer documents (live and deleted) than another copy of that range had just
 * before: the writes it missed while down, which internal replication brings it. Updates of existing documents change
 * no count, so the catch-up of a load that only updates is not seen here.
 */
final class NodeSync {

  // A request to a node that is restarting, made through another node, may wait for minutes (seen on CouchDB 3.5); a
  // read unanswered within this is one more read where the node was not seen, 100 ms later the next is sent.
  private static final Duration READ_TIMEOUT = Duration.ofMillis(500);

  private final CouchDbClient client;
  private final String node;
  /** Each shard copy the node holds, by name (shards/range/db.suffix, alike on every node), with its other nodes. */
  private final Map<String, List<String>> copies;
  private final long restartMillis;
  private long backMillis = -1;
  private long lastAskedMillis;
  private long firstReadMillis = -1;
  private long firstBehind;
  private long mostBehind;
  private long caughtUpMillis = -1;
  private int levelReads;
  private long levelMillis;

  private NodeSync(CouchDbClient client, String node, Map<String, List<String>> copies, long restartMillis) {
    this.client = client;
    this.node = node;
    this.copies = copies;
    this.restartMillis = restartMillis;
  }

  /**
   * The node nodesync restarts: one the load does not send to, so that the load measures the cluster while that node
   * is away and catches up, not requests refused by it. Checked before the load.
   *
   * @param target the CouchDB loaded: its -Dcouchdb.url nodes
   * @param named -DbackgroundNode, if given
   * @return the node's name, e.g. "couchdb@db3.example"
   * @throws SettingsException for a single node, a node not of the cluster, or one the load uses
   */
  static String choose(CouchTarget target, Optional<String> named) {
    try {
      return choose(target, named, clusterNodes(target));
    } catch (CouchDbException e) {
      throw new SettingsException("-Dbackground=nodesync: " + e.getMessage() + (e.isAuthFailure()
          ? " (restarting a node needs a server admin: give -Dcouchdb.user an admin's name)" : ""));
    }
  }

  private static TreeSet<String> clusterNodes(CouchTarget target) {
    return new TreeSet<>(new CouchDbClient(target).clusterNodes());
  }

  private static String choose(CouchTarget target, Optional<String> named, TreeSet<String> members) {
    if (members.size() < 2) {
      throw new SettingsException("-Dbackground=nodesync restarts a node of a CouchDB cluster, and "
          + target.baseUrl() + " is a single node (its _membership lists " + members + "): give a cluster's nodes in"
          + " -Dcouchdb.url, or leave nodesync out");
    }
    List<String> loaded = new ArrayList<>();
    for (String url : target.nodes().urls()) {
      CouchReply self = new CouchDbClient(target.node(url)).get("/_node/_local");
      String name = ReplyJson.of(self.body()).path("name").asText("");
      if (name.isEmpty()) {
        throw new SettingsException("-Dbackground=nodesync: " + url + " does not say which node it is (GET"
            + " /_node/_local answered " + self.status() + " without a name), so the node to restart cannot be one"
            + " the load leaves alone: give CouchDB 3 nodes in -Dcouchdb.url");
      }
      loaded.add(name);
    }
    // A node the load uses would refuse the load's requests while it restarts: the run's own failures, not the cost.
    String why = "while a node restarts, the load's requests to it fail, which would count as the run's own failures";
    if (named.isPresent()) {
      if (!members.contains(named.get())) {
        throw new SettingsException("-DbackgroundNode=" + named.get() + " is not a node of the cluster " + members
            + ": give one of them");
      }
      if (loaded.contains(named.get())) {
        throw new SettingsException("-DbackgroundNode=" + named.get() + " is one the load uses: leave it out of"
            + " -Dcouchdb.url (" + why + ")");
      }
      return named.get();
    }
    members.removeAll(loaded);
    if (members.isEmpty()) {
      throw new SettingsException("-Dbackground=nodesync restarts a node the load does not send to, and -Dcouchdb.url"
          + " loads every node of the cluster " + loaded + ": leave one out of -Dcouchdb.url (e.g. give 2 of 3), and"
          + " the run restarts that one (" + why + ")");
    }
    return members.last();
  }

  /**
   * Restarts the node.
   *
   * @param client a client of a node the load uses, through which the node is read
   * @param database the load's database
   * @param node the node, from {@link #choose}
   * @return the restart, to be read until {@link #caughtUp}
   * @throws OneLineException when the node holds no copy of the database, or the server refuses the restart
   */
  static NodeSync restart(CouchDbClient client, String database, String node) {
    Map<String, List<String>> rangeNodes = new LinkedHashMap<>();
    JsonNode shards = ReplyJson.of(client.get("/" + database + "/_shards").body()).path("shards");
    shards.fields().forEachRemaining(range -> {
      List<String> holders = new ArrayList<>();
      range.getValue().forEach(name -> holders.add(name.asText()));
      rangeNodes.put(range.getKey(), holders);
    });
    Map<String, List<String>> copies = new LinkedHashMap<>();
    for (JsonNode local : ReplyJson.of(client.get("/_node/" + node + "/_all_dbs").body())) {
      String name = local.asText();
      String[] parts = name.split("/");
      if (parts.length == 3 && parts[0].equals("shards") && parts[2].startsWith(database + ".")
          && parts[2].substring(database.length() + 1).chars().allMatch(Character::isDigit)
          && rangeNodes.getOrDefault(parts[1], List.of()).contains(node)) {
        copies.put(name, rangeNodes.get(parts[1]).stream().filter(other -> !other.equals(node)).toList());
      }
    }
    if (copies.isEmpty()) {
      throw new BackgroundException("node " + node + " holds no copy of " + database + ", so it has nothing to catch"
          + " up: give -DbackgroundNode a node that holds one (GET /" + database + "/_shards), or -Dn the cluster's"
          + " size");
    }
    CouchReply reply = client.exchange("POST", "/_node/" + node + "/_restart", "");
    if (reply.status() != 200) {
      throw new BackgroundException("POST /_node/" + node + "/_restart answered " + reply.status() + " "
          + reply.reason() + ": restarting a node needs a server admin of CouchDB 3 (-Dcouchdb.user)");
    }
    return new NodeSync(client, node, copies, RunClock.millis());
  }

  /**
   * One read: whether the node is back, and then how far behind its copies are.
   *
   * @return the catch-up's progress (%): the share of its most documents behind made up; -1 while the node is down or
   *     its copies could not be read
   */
  int read() {
    long now = RunClock.millis();
    if (backMillis < 0) {
      // A read of a node that is away may stay pending on the loaded node that forwards it: one a second, not ten.
      if (now - lastAskedMillis < 1000) {
        return -1;
      }
      lastAskedMillis = now;
      Optional<JsonNode> system = quietly("/_node/" + node + "/_system");
      // Its uptime (whole seconds) began after the restart was asked: the node is back, not yet gone.
      if (system.isEmpty() || system.get().path("uptime").asLong(Long.MAX_VALUE) * 1000 > now - restartMillis + 1000) {
        return -1;
      }
      backMillis = now;
    }
    long behind = 0;
    for (Map.Entry<String, List<String>> copy : copies.entrySet()) {
      // The others first, then its own: under a steady load the other order never sees it level, the writes landing
      // between the reads counting for the others only. This order may see it level while it still misses as many
      // documents as were written between the two reads (a few), so it takes two level reads in a row.
      long others = 0;
      for (String other : copy.getValue()) {
        Optional<Long> count = documents(other, copy.getKey());
        if (count.isEmpty()) {
          return -1;
        }
        others = Math.max(others, count.get());
      }
      Optional<Long> own = documents(node, copy.getKey());
      if (own.isEmpty()) {
        return -1;
      }
      behind += Math.max(0, others - own.get());
    }
    if (firstReadMillis < 0) {
      firstReadMillis = RunClock.millis();
      firstBehind = behind;
    }
    mostBehind = Math.max(mostBehind, behind);
    levelReads = behind == 0 ? levelReads + 1 : 0;
    if (levelReads == 1) {
      levelMillis = RunClock.millis(); // caught up here, if the next read agrees
    }
    if (levelReads == 2) {
      caughtUpMillis = levelMillis;
    }
    return behind == 0 ? 100 : (int) (100 - 100 * behind / mostBehind);
  }

  /** @return whether the node is back and its copies have caught up */
  boolean caughtUp() {
    return caughtUpMillis >= 0;
  }

  /** @return when its copies were first seen level with the others, on the run's clock; -1 while not caught up */
  long caughtUpMillis() {
    return caughtUpMillis;
  }

  /** @return when the restart was asked, on the run's clock (epoch milliseconds) */
  long restartMillis() {
    return restartMillis;
  }

  /** @return when the node answered again, on the run's clock; -1 while it has not */
  long backMillis() {
    return backMillis;
  }

  /**
   * @return what happened in words: how long the node was away, how far behind its copies were when first read (a
   *     restarted node's copies may not answer for a while after the node does), how long it took to catch up
   */
  String describe() {
    if (backMillis < 0) {
      return node + " did not answer again";
    }
    String away = String.format(Locale.ROOT, "%s away %.1f s", node, (backMillis - restartMillis) / 1000.0);
    if (firstReadMillis < 0) {
      return away + "; its copies not read since";
    }
    return away + String.format(Locale.ROOT, "; its copies, first read %.1f s after it was back, were %,d documents"
        + " behind the others (%,d at most)", (firstReadMillis - backMillis) / 1000.0, firstBehind, mostBehind)
        + (caughtUp() ? String.format(Locale.ROOT, "; caught up %.1f s after it was back",
            (caughtUpMillis - backMillis) / 1000.0) : "");
  }

  // Live and deleted documents in one node's copy of a shard, read through the load's node; empty when unread.
  private Optional<Long> documents(String holder, String shard) {
    return quietly("/_node/" + holder + "/" + URLEncoder.encode(shard, StandardCharsets.UTF_8))
        .filter(info -> info.has("doc_count"))
        .map(info -> info.path("doc_count").asLong() + info.path("doc_del_count").asLong());
  }

  private Optional<JsonNode> quietly(String path) {
    try {
      CouchReply reply = client.exchange("GET", path, "", READ_TIMEOUT);
      return reply.status() == 200 ? Optional.of(ReplyJson.of(reply.body())) : Optional.empty();
    } catch (CouchDbException e) {
      if (e.isAuthFailure()) {
        throw e;
      }
      return Optional.empty();
    }
  }

}
