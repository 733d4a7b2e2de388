package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.targets.CouchTarget;
import couchbench.targets.CouchWaits;
import couchbench.targets.Credentials;
import couchbench.targets.SteadyHttp;
import couchbench.targets.TlsFailure;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A small blocking CouchDB client for what happens outside the measured load: creating and deleting
 * databases, writing setup documents, querying views, and reading the server's own counts.
 * Credentials go out preemptively on every request, as CouchDB 3 needs them and a challenge round
 * trip would count as a failed login. A request waits -Dcouchdb.timeout seconds for its reply; one that gets none is
 * told from a server that is down by asking {@code /_up}.
 */
public final class CouchDbClient {

  /** How long {@code GET /_up} waits, asked when a request got no reply: is the server up, only slow? */
  private static final Duration UP_TIMEOUT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** For send(): return the reply whatever its status (a refused login still throws). */
  private static final int[] ANY_STATUS = null;

  private final CouchTarget target;
  private final Optional<String> authorization;
  private final HttpClient http;
  private final Duration timeout;

  /**
   * A client for one CouchDB server.
   *
   * @param target where the server is, and the credentials to send
   */
  public CouchDbClient(CouchTarget target) {
    this.target = target;
    this.authorization = target.credentials().map(Credentials::authorization);
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(target.tls().sslContext())
        .build();
    this.timeout = target.waits().reply();
  }

  /** @return how long its requests wait for a reply, and how long an index build is followed */
  public CouchWaits waits() {
    return target.waits();
  }

  /**
   * Creates an empty database, replacing one of the same name left by an earlier run; with -Dq and -Dn, of that many
   * shards and copies.
   *
   * @param name the database name
   */
  public void createDatabase(String name) {
    createDatabase(name, false);
  }

  /**
   * Creates an empty database, as {@link #createDatabase(String)} does; partitioned with {@code ?partitioned=true}.
   *
   * @param name the database name
   * @param partitioned whether every document id must name its partition ({@code partition:id})
   */
  public void createDatabase(String name, boolean partitioned) {
    String query = target.options().createQuery();
    String create = "/" + name + query + (partitioned ? (query.isEmpty() ? "?" : "&") + "partitioned=true" : "");
    int status = send("PUT", create, 201, 202, 412).statusCode();
    if (status == 412) {
      deleteDatabase(name);
      send("PUT", create, 201, 202);
    }
  }

  /**
   * Creates a database unless it exists (with -Dq and -Dn, of that many shards and copies); an existing one is kept
   * with its documents.
   *
   * @param name the database name
   * @return true when it was created now
   */
  public boolean ensureDatabase(String name) {
    return send("PUT", "/" + name + target.options().createQuery(), 201, 202, 412).statusCode() != 412;
  }

  /**
   * What a cluster says of a database's shards: {@code GET /db/_shards}, each range with the nodes holding a copy.
   *
   * @param name the database name
   * @return e.g. {@code {"00000000-7fffffff":["node1@..."],...}}; empty when the server has no such endpoint
   *     (pouchdb-server, a single CouchDB without the clustered API)
   */
  public Optional<JsonNode> shards(String name) {
    return jsonIf200(get("/" + name + "/_shards")).map(reply -> reply.path("shards")).filter(JsonNode::isObject);
  }

  /**
   * The node's own figures: {@code GET /_node/_local/_system} (memory, run queue, processes).
   *
   * @return its JSON; empty when the server has no such endpoint (pouchdb-server)
   */
  public Optional<JsonNode> nodeSystem() {
    return jsonIf200(get("/_node/_local/_system"));
  }

  /**
   * The node's own counters: {@code GET /_node/_local/_stats} (requests served, database reads and writes, ...).
   *
   * @return its JSON; empty when the server has no such endpoint (pouchdb-server)
   */
  public Optional<JsonNode> nodeStats() {
    return nodeStats("_local");
  }

  /**
   * A node's own counters, asked of this server: {@code GET /_node/<node>/_stats}, which CouchDB answers for any node
   * of its cluster.
   *
   * @param node the node as {@link #clusterNodes} names it, or {@code _local} for this server's own
   * @return its JSON; empty when the server has no such endpoint (pouchdb-server)
   */
  public Optional<JsonNode> nodeStats(String node) {
    return jsonIf200(get("/_node/" + node + "/_stats"));
  }

  /**
   * The cluster's nodes, as the server names them: {@code GET /_membership}'s cluster_nodes.
   *
   * @return e.g. [couchdb@10.0.0.1, couchdb@10.0.0.2]; empty when the server has no such endpoint or names none
   */
  public List<String> clusterNodes() {
    List<String> nodes = new ArrayList<>();
    jsonIf200(get("/_membership")).ifPresent(membership -> membership.path("cluster_nodes")
        .forEach(node -> nodes.add(node.asText())));
    return List.copyOf(nodes);
  }

  private Optional<JsonNode> jsonIf200(CouchReply reply) {
    if (reply.status() != 200) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(JSON.readTree(reply.body()));
    } catch (IOException notJson) {
      return Optional.empty();
    }
  }

  /**
   * @param name the database name
   * @return whether it exists
   */
  public boolean databaseExists(String name) {
    return send("GET", "/" + name, 200, 404).statusCode() == 200;
  }

  /**
   * Reads a document.
   *
   * @param database the database name
   * @param id the document id, e.g. {@code _design/todo}
   * @return the document, empty when there is none
   */
  public Optional<JsonNode> document(String database, String id) {
    HttpResponse<byte[]> response = send("GET", "/" + database + "/" + id, 200, 404);
    return response.statusCode() == 404 ? Optional.empty() : Optional.of(json(response.body()));
  }

  /**
   * A document's ETag, as {@code HEAD /db/id} gives it: CouchDB's is the document's {@code _rev} in quotes.
   *
   * @param database the database name
   * @param id the document id
   * @return the ETag; empty when the reply has none
   */
  public Optional<String> etag(String database, String id) {
    return send("HEAD", "/" + database + "/" + id, 200).headers().firstValue("ETag");
  }

  /**
   * Creates or replaces a document; a replacement must carry the current {@code _rev}.
   *
   * @param database the database name
   * @param id the document id
   * @param json the document, as JSON
   */
  public void putDocument(String database, String id, String json) {
    send("PUT", "/" + database + "/" + id, json.getBytes(StandardCharsets.UTF_8), Optional.of(timeout), 201, 202);
  }

  /**
   * Writes documents in one {@code POST /db/_bulk_docs}.
   *
   * @param database the database name
   * @param bulkBody the {@code {"docs":[...]}} body
   * @param count how many documents the body holds
   * @return what the server stored, and the error kinds of those it rejected
   */
  public DocWriteReply insertDocuments(String database, byte[] bulkBody, int count) {
    return DocWriteReply.parse(send("POST", "/" + database + "/_bulk_docs", bulkBody, Optional.of(timeout), 201,
        202).body(), count);
  }

  /**
   * Sends a GET and returns the reply whatever its status, except a refused login, which throws.
   *
   * @param path the path below the server, with its query string
   * @return the status and body
   */
  public CouchReply get(String path) {
    return exchange("GET", path, "");
  }

  /**
   * Sends a request and returns the reply whatever its status, except a refused login, which throws.
   *
   * @param method e.g. "POST"
   * @param path the path below the server, with its query string
   * @param json the body, sent as application/json; "" for none
   * @return the status, Content-Type and body
   */
  public CouchReply exchange(String method, String path, String json) {
    return exchange(method, path, json, Optional.of(timeout));
  }

  /**
   * The same, for a request CouchDB answers only once its work is done (a view's first query, a one-shot
   * replication), which may take longer than a request's usual timeout.
   *
   * @param method e.g. "POST"
   * @param path the path below the server, with its query string
   * @param json the body, sent as application/json; "" for none
   * @param timeout how long to wait for the answer
   * @return the status, Content-Type and body
   */
  public CouchReply exchange(String method, String path, String json, Duration timeout) {
    return exchange(method, path, json, Optional.of(timeout));
  }

  /** The same, waiting as long as the reply takes, for {@link IndexBuildFollower}, which keeps the time itself. */
  CouchReply exchangeUntimed(String method, String path, String json) {
    return exchange(method, path, json, Optional.empty());
  }

  private CouchReply exchange(String method, String path, String json, Optional<Duration> timeout) {
    HttpResponse<byte[]> response = send(method, path, json.getBytes(StandardCharsets.UTF_8), timeout,
        ANY_STATUS);
    return new CouchReply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""),
        response.body());
  }

  /**
   * Deletes a database; one that does not exist is fine.
   *
   * @param name the database name
   */
  public void deleteDatabase(String name) {
    send("DELETE", "/" + name, 200, 202, 404);
  }

  /**
   * The database's own count of live documents ({@code doc_count} of {@code GET /db}).
   *
   * @param name the database name
   * @return the document count
   */
  public long docCount(String name) {
    return databaseInfo(name).docCount();
  }

  /**
   * What {@code GET /db} says: the document count and, where the server reports them, sizes.
   *
   * @param name the database name
   * @return the database info
   */
  public DatabaseInfo databaseInfo(String name) {
    return DatabaseInfo.parse(send("GET", "/" + name, 200).body());
  }

  private HttpResponse<byte[]> send(String method, String path, int... expected) {
    return send(method, path, new byte[0], Optional.of(timeout), expected);
  }

  /**
   * Sends a request; with ANY_STATUS, any status but a refusal is returned. Once the run's load was
   * refused its login, nothing with those credentials is sent: CouchDB 3 locks a user out after a
   * few failed logins. Without a timeout, it waits as long as the reply takes.
   */
  private HttpResponse<byte[]> send(String method, String path, byte[] body, Optional<Duration> timeout,
      int... expected) {
    if (authorization.isPresent() && CouchHttp.loginWasRefused()) {
      throw new CouchDbException(method + " " + path + " not sent: CouchDB refused the login during the run", true);
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(target.baseUrl() + path))
            .header("Accept", "application/json")
            .method(method, body.length == 0
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(body));
    // CouchDB 3 wants it on every body; pouchdb-server stores a design document without it, minus its views.
    if (body.length > 0) {
      request.header("Content-Type", "application/json");
    }
    authorization.ifPresent(header -> request.header("Authorization", header));
    HttpResponse<byte[]> response;
    try {
      response = SteadyHttp.send(http, request.build(), timeout, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new CouchDbException(TlsFailure.describe(e, target.baseUrl(), target.tls())
          .orElseGet(() -> unanswered(method + " " + path, e, timeout)), false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CouchDbException("interrupted while waiting for CouchDB", false);
    }
    int status = response.statusCode();
    if (CouchAuth.isRefusal(status)) {
      throw new CouchDbException(CouchAuth.refusalMessage(target, status), true);
    }
    if (expected == null) {
      return response;
    }
    for (int ok : expected) {
      if (status == ok) {
        return response;
      }
    }
    throw new CouchDbException(
        "CouchDB at " + target.baseUrl() + " answered " + method + " " + path + " with " + status
            + " " + reason(response.body()), false);
  }

  /**
   * Why a request got no reply, in one line: a server that still answers /_up is slow, not down, and the fix is to wait
   * longer; only one that answers neither is to be started.
   */
  private String unanswered(String request, IOException e, Optional<Duration> waited) {
    String server = "CouchDB at " + target.baseUrl();
    if (!answersUp()) {
      return server + " did not answer " + request + " (" + e.getClass().getSimpleName()
          + "), nor GET /_up: start it or set -Dcouchdb.url";
    }
    // HttpConnectTimeoutException is an HttpTimeoutException too, but only a reply that is late is the timeout's.
    if (e instanceof HttpTimeoutException && !(e instanceof HttpConnectTimeoutException) && waited.isPresent()) {
      String late = server + " answered /_up but not " + request + " within " + waited.get().toSeconds()
          + " s: it is up, and busy";
      // A caller that gave its own timeout names its own setting.
      return waited.get().equals(timeout) ? late + "; set -D" + CouchWaits.REPLY_SETTING + "=SECONDS (now "
          + timeout.toSeconds() + ") to wait longer" : late;
    }
    return server + " answered /_up but not " + request + " (" + e.getClass().getSimpleName() + ": "
        + e.getMessage() + "): see the server's log";
  }

  // Any HTTP reply at all, without the login: a refusal would say the server is up as well as a 200 does.
  private boolean answersUp() {
    try {
      SteadyHttp.send(http, HttpRequest.newBuilder(URI.create(target.baseUrl() + "/_up")).GET().build(),
          Optional.of(UP_TIMEOUT), HttpResponse.BodyHandlers.discarding());
      return true;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private JsonNode json(byte[] body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new CouchDbException("CouchDB at " + target.baseUrl() + " sent a document that is not JSON", false);
    }
  }

  /**
   * CouchDB's error replies carry {"error": kind, "reason": text}; anything else is shown briefly.
   *
   * @param body a reply body
   * @return "kind: reason", or the start of the body
   */
  public static String reason(byte[] body) {
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.has("error")) {
        return node.path("error").asText() + ": " + node.path("reason").asText();
      }
    } catch (IOException notJson) {
      // fall through: show the start of whatever came back
    }
    String text = new String(body, StandardCharsets.UTF_8).strip();
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
