package couchbench.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.DatabaseInfo;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * CouchDB's own figures: a database's info, the node's statistics where the server offers them
 * (CouchDB 2+; pouchdb-server has none), and the local pouchdb-server's process.
 */
public final class CouchResources {

  /** Live documents in the database. */
  public static final String DOC_COUNT = "couchdb doc_count";

  private static final ObjectMapper JSON = new ObjectMapper();

  private CouchResources() {}

  /**
   * Reads the figures now, with the process figures of the server when it runs on this machine ({@link ServerProcess}).
   *
   * @param target the CouchDB server
   * @param database the database measured
   * @return the figures, see {@link #snapshot(CouchDbClient, String, Optional)}
   * @throws CouchDbException when the database info cannot be read
   */
  public static ResourceSnapshot snapshot(CouchTarget target, String database) {
    return snapshot(new CouchDbClient(target), database, ServerProcess.of(target));
  }

  /**
   * Same, with the client and the local server given, e.g. one a test started.
   *
   * @param client the CouchDB client
   * @param database the database measured
   * @param local the process serving it, if started here
   * @return doc_count, sizes.file, sizes.active, sizes.external (CouchDB 2+), disk_size
   *     (pouchdb-server, CouchDB 1), the node's HTTP requests, database reads and writes, and
   *     Erlang memory (CouchDB 2+), each n/a where the server does not report it; then
   *     "pouchdb-server cpu time (s)" and "pouchdb-server data directory (bytes)" for a local one
   * @throws CouchDbException when the database info cannot be read
   */
  public static ResourceSnapshot snapshot(CouchDbClient client, String database, Optional<LocalServer> local) {
    DatabaseInfo info = client.databaseInfo(database);
    Map<String, Optional<BigDecimal>> figures = new LinkedHashMap<>();
    figures.put(DOC_COUNT, Optional.of(BigDecimal.valueOf(info.docCount())));
    figures.put("couchdb sizes.file (bytes)", decimal(info.fileSize()));
    figures.put("couchdb sizes.active (bytes)", decimal(info.activeSize()));
    figures.put("couchdb sizes.external (bytes)", decimal(info.externalSize()));
    figures.put("couchdb disk_size (bytes)", decimal(info.diskSize()));
    Optional<JsonNode> stats = node(client, "/_node/_local/_stats");
    figures.put("couchdb httpd requests", at(stats, "couchdb", "httpd", "requests", "value"));
    figures.put("couchdb database_reads", at(stats, "couchdb", "database_reads", "value"));
    figures.put("couchdb database_writes", at(stats, "couchdb", "database_writes", "value"));
    figures.put("couchdb erlang memory (bytes)", node(client, "/_node/_local/_system").map(CouchResources::erlangMemory)
        .map(BigDecimal::valueOf));
    local.ifPresent(server -> LocalProcess.addFigures(server, figures));
    figures.put(ResourceSnapshot.CLOCK, Optional.of(ResourceSnapshot.clockNow()));
    return new ResourceSnapshot(figures);
  }

  /**
   * The memory the node's Erlang VM holds: {@code _system}'s memory has no total, but its parts, the processes' and the
   * system's ("atom_used" and "processes_used" are parts of "atom" and "processes"), as erlang:memory() gives them.
   *
   * @param system the node's {@code _node/_local/_system}
   * @return their sum, in bytes
   */
  public static long erlangMemory(JsonNode system) {
    long bytes = 0;
    for (Map.Entry<String, JsonNode> part : system.path("memory").properties()) {
      bytes += part.getKey().endsWith("_used") ? 0 : part.getValue().asLong();
    }
    return bytes;
  }

  /**
   * A node statistics document, if the server offers it: pouchdb-server answers 404, and a CouchDB
   * login that is not a server admin is refused (401/403); neither is an error here.
   */
  private static Optional<JsonNode> node(CouchDbClient client, String path) {
    CouchReply reply;
    try {
      reply = client.get(path);
    } catch (CouchDbException e) {
      if (e.isAuthFailure()) {
        return Optional.empty();
      }
      throw e;
    }
    return reply.status() == 200 ? json(reply.body()) : Optional.empty();
  }

  /** The number at a path of a JSON document; empty when absent or not a number. */
  static Optional<BigDecimal> at(Optional<JsonNode> document, String... path) {
    return document.map(node -> {
      for (String field : path) {
        node = node.path(field);
      }
      return node;
    }).filter(JsonNode::isNumber).map(JsonNode::decimalValue);
  }

  static Optional<JsonNode> json(byte[] body) {
    try {
      return Optional.ofNullable(JSON.readTree(body));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  private static Optional<BigDecimal> decimal(OptionalLong value) {
    return value.isPresent() ? Optional.of(BigDecimal.valueOf(value.getAsLong())) : Optional.empty();
  }
}
