package couchbench.targets;

import java.util.List;
import java.util.Objects;

/**
 * The CouchDB nodes a run loads: one URL, or several of one cluster (-Dcouchdb.url=http://a:5984,http://b:5984), the
 * first of which takes the setup. Each virtual user is pinned to one node, round robin, or with
 * -Dcouchdb.spread=request each request goes to the next node.
 *
 * @param urls the nodes' base URLs, without user-info, in the order given
 * @param spreadPerRequest true for -Dcouchdb.spread=request, false for user (the default)
 * @param members the cluster's nodes as its GET /_membership names them (cluster_nodes); empty when not known
 */
public record CouchNodes(List<String> urls, boolean spreadPerRequest, List<String> members) {

  /** The setting that spreads the load over the nodes: user (the default) or request. */
  public static final String SPREAD = "couchdb.spread";

  public CouchNodes {
    urls = List.copyOf(urls);
    members = List.copyOf(members);
    if (urls.isEmpty()) {
      throw new IllegalArgumentException("no CouchDB node");
    }
  }

  /**
   * @param url the one node's base URL
   * @return a single node, loaded by every user
   */
  public static CouchNodes single(String url) {
    return new CouchNodes(List.of(Objects.requireNonNull(url, "url")), false, List.of());
  }

  /** @return whether there are several nodes: only then is the load spread and counted per node */
  public boolean cluster() {
    return urls.size() > 1;
  }

  /** @return e.g. "3 nodes, each user pinned to one (round robin)" */
  public String describeSpread() {
    return urls.size() + " nodes, " + (spreadPerRequest ? "each request to the next node (-D" + SPREAD + "=request)"
        : "each user pinned to one, round robin (-D" + SPREAD + "=user)");
  }
}
