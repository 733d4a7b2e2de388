package couchbench.variants;

import com.fasterxml.jackson.databind.node.TextNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.targets.CouchTarget;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The configuration of one CouchDB server (every node of a cluster), through {@code /_node/<node>/_config}, as a
 * server admin reads and changes it.
 */
final class ServerConfig {

  /** CouchDB 3.5's own settings, set or commented out in its default.ini. */
  private static final Set<String> KNOWN = known();

  private final CouchTarget target;
  private final CouchDbClient client;
  private final List<String> nodes;

  private ServerConfig(CouchTarget target, CouchDbClient client, List<String> nodes) {
    this.target = target;
    this.client = client;
    this.nodes = nodes;
  }

  /**
   * @param target a CouchDB server
   * @return its configuration, on every node its {@code GET /_membership} lists
   * @throws VariantsException when it has no {@code _config} (pouchdb-server) or the login is not a server admin's
   */
  static ServerConfig of(CouchTarget target) {
    ServerConfig server = new ServerConfig(target, new CouchDbClient(target), List.of());
    CouchReply config = server.send("GET", "/_node/_local/_config", "");
    if (config.status() != 200 || !ReplyJson.of(config.body()).isObject()) {
      throw new VariantsException(target.describe() + " answers GET /_node/_local/_config with " + config.status()
          + " (" + config.reason() + "): config.<section>.<key> variants need an Apache CouchDB 3.x server, whose"
          + " settings that API reads and changes (pouchdb-server has none)");
    }
    List<String> nodes = new ArrayList<>();
    ReplyJson.of(server.send("GET", "/_membership", "").body()).path("cluster_nodes")
        .forEach(node -> nodes.add(node.asText()));
    return new ServerConfig(target, server.client, nodes.isEmpty() ? List.of("_local") : List.copyOf(nodes));
  }

  /** @return the server, as the run describes it (never with a password) */
  String server() {
    return target.describe();
  }

  /** @return the server's base URL, which names its restore file */
  String baseUrl() {
    return target.baseUrl();
  }

  /** @return its nodes, as {@code /_membership} names them; "_local" for one that names none */
  List<String> nodes() {
    return nodes;
  }

  /**
   * @param node a node of {@link #nodes}
   * @param key the setting
   * @return its value on that node; empty when the node has none (CouchDB then uses its built-in default)
   * @throws VariantsException when the node refuses the login or answers otherwise than 200 or 404
   */
  Optional<String> value(String node, ConfigKey key) {
    CouchReply reply = send("GET", path(node, key), "");
    if (reply.status() == 404) {
      return Optional.empty();
    }
    if (reply.status() != 200) {
      throw new VariantsException(server() + " answers GET " + path(node, key) + " with " + reply.status() + " ("
          + reply.reason() + ")");
    }
    return Optional.of(ReplyJson.of(reply.body()).asText());
  }

  /**
   * Sets a setting on a node, or removes the node's own value (so that CouchDB's default applies).
   *
   * @param node a node of {@link #nodes}
   * @param key the setting
   * @param value the value; empty to remove the node's own
   * @throws VariantsException when the server refuses it, with its reply
   */
  void set(String node, ConfigKey key, Optional<String> value) {
    CouchReply reply = value.isPresent() ? send("PUT", path(node, key), TextNode.valueOf(value.get()).toString())
        : send("DELETE", path(node, key), "");
    if (reply.status() != 200 && !(value.isEmpty() && reply.status() == 404)) {
      throw new VariantsException(server() + " refused " + key + (value.isPresent() ? " = " + key.shown(value)
          : " removed") + " on node " + node + ": " + reply.status() + " " + reply.reason());
    }
  }

  /**
   * A setting no node has a value of is known when CouchDB 3.5's default.ini names it: CouchDB takes any section and
   * key it is given, so that a misspelt one would change nothing and say nothing.
   *
   * @param key a setting no node of the server has a value of
   * @throws VariantsException naming CouchDB's reply when default.ini does not name it either
   */
  void checkKnownUnset(ConfigKey key) {
    if (KNOWN.contains(key.section() + " " + key.key())) {
      return;
    }
    CouchReply reply = send("GET", path(nodes.get(0), key), "");
    throw new VariantsException("-Dvariants: " + key + " is not a setting of " + server() + ": it answers GET "
        + path(nodes.get(0), key) + " with " + reply.status() + " (" + reply.reason() + "), and CouchDB 3.5's"
        + " default.ini has no such key; check the section and key against CouchDB's configuration reference");
  }

  private static String path(String node, ConfigKey key) {
    return "/_node/" + node + "/_config" + key.path();
  }

  // The client refuses a 401 or 403 itself; here it says what variants need.
  private CouchReply send(String method, String path, String json) {
    try {
      return client.exchange(method, path, json);
    } catch (CouchDbException e) {
      if (!e.isAuthFailure()) {
        throw e;
      }
      throw new VariantsException(e.getMessage() + "; config.<section>.<key> variants read and change the settings"
          + " of every node (" + method + " " + path + "), which only a server admin may");
    }
  }

  private static Set<String> known() {
    Set<String> keys = new HashSet<>();
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(ServerConfig.class.getResourceAsStream(
        "/couchbench/variants/couchdb-3.5-keys.txt"), StandardCharsets.UTF_8))) {
      lines.lines().filter(line -> !line.startsWith("#") && !line.isBlank()).forEach(keys::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Set.copyOf(keys);
  }
}
