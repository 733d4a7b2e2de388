package couchbench.targets;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.startup.Console;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether the nodes of -Dcouchdb.url are one cluster, as the cluster itself says: each node's {@code GET /_membership}
 * ({@code cluster_nodes}) must list the same nodes, and each node's own name ({@code GET /_node/_local}) must be among
 * them, once. pouchdb-server, the stand-in, has no cluster (its _membership names one node of its own, whatever its
 * URL): it is not checked, nor is a server without these endpoints, and a line says so.
 */
final class ClusterMembership {

  private ClusterMembership() {}

  /**
   * @param urls the nodes' base URLs, two or more
   * @param standIn whether they answer as pouchdb-server
   * @return the cluster's nodes (cluster_nodes); empty when the servers do not say
   * @throws TargetException when the nodes are not one cluster's, or one of them is given twice under two URLs
   */
  static List<String> check(List<String> urls, Optional<Credentials> credentials, ServerTls tls, boolean standIn) {
    if (standIn) {
      Console.say("cluster: pouchdb-server, the stand-in, has no cluster (nor _shards, q and n): that "
          + String.join(", ", urls) + " are one cluster is not checked");
      return List.of();
    }
    Map<String, Optional<JsonNode>> memberships = new LinkedHashMap<>();
    for (String url : urls) {
      memberships.put(url, CouchProbe.json(url, "/_membership", credentials, tls));
    }
    List<String> silent = memberships.entrySet().stream().filter(node -> node.getValue().isEmpty())
        .map(Map.Entry::getKey).toList();
    if (silent.size() == urls.size()) {
      Console.say("cluster: no node answers GET /_membership: that " + String.join(", ", urls)
          + " are one cluster is not checked");
      return List.of();
    }
    if (!silent.isEmpty()) {
      throw new TargetException("-Dcouchdb.url: " + String.join(", ", silent) + " answer" + (silent.size() == 1
          ? "s" : "") + " no GET /_membership where the other nodes do: they are not nodes of one CouchDB cluster;"
          + " give the nodes of one cluster");
    }
    String first = urls.get(0);
    TreeSet<String> members = clusterNodes(memberships.get(first).get());
    Map<String, String> urlOfName = new LinkedHashMap<>();
    for (String url : urls) {
      TreeSet<String> listed = clusterNodes(memberships.get(url).get());
      if (!listed.equals(members)) {
        throw new TargetException("-Dcouchdb.url: " + first + " and " + url + " are not nodes of one cluster ("
            + first + " lists " + members + ", " + url + " lists " + listed + "): give the nodes of one cluster");
      }
      Optional<String> name = CouchProbe.json(url, "/_node/_local", credentials, tls)
          .map(node -> node.path("name").asText("")).filter(n -> !n.isEmpty());
      if (name.isPresent() && !members.contains(name.get())) {
        throw new TargetException("-Dcouchdb.url: " + url + " is node " + name.get() + ", which is not in its"
            + " cluster's cluster_nodes " + members + ": add it to the cluster, or leave it out");
      }
      if (name.isPresent() && urlOfName.containsKey(name.get())) {
        throw new TargetException("-Dcouchdb.url: " + urlOfName.get(name.get()) + " and " + url + " are one node ("
            + name.get() + "): give each node once");
      }
      name.ifPresent(n -> urlOfName.put(n, url));
    }
    Console.say("cluster: " + members.size() + " nodes (" + String.join(", ", members) + "), " + urls.size()
        + " of them loaded");
    return new ArrayList<>(members);
  }

  private static TreeSet<String> clusterNodes(JsonNode membership) {
    TreeSet<String> names = new TreeSet<>();
    membership.path("cluster_nodes").forEach(name -> names.add(name.asText()));
    return names;
  }
}
