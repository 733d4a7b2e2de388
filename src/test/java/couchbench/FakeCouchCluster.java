package couchbench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Loopback HTTP servers standing in for the nodes of one CouchDB 3 cluster whose quorum is not met, answering as
 * CouchDB's documentation says, for what pouchdb-server lacks: {@code GET /_membership} (every node lists the cluster's
 * {@code cluster_nodes}), {@code GET /_node/_local} (the node's name), {@code PUT /db?q=&n=} (kept, and shown by
 * {@code GET /db}'s {@code cluster}), {@code GET /db/_shards} (q ranges, each on n nodes), {@code GET
 * /_node/_local/_system}, and a document write answered {@code 202 Accepted}: stored, but fewer copies than the quorum
 * confirmed it, as a cluster with a node down answers. The nodes share their databases, as a cluster's do.
 */
public final class FakeCouchCluster implements AutoCloseable {

  /** A database: its q and n as created, and its documents written. */
  private record Database(int q, int n, AtomicLong docs) {}

  private final List<HttpServer> servers = new ArrayList<>();
  private final List<String> members;
  private final Map<String, Database> databases = new ConcurrentHashMap<>();
  private final Set<String> writeQueries = ConcurrentHashMap.newKeySet();
  private final AtomicLong requests = new AtomicLong();

  private FakeCouchCluster(int nodes, List<String> members) throws IOException {
    this.members = List.copyOf(members);
    for (int i = 0; i < nodes; i++) {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      String name = members.get(i % members.size());
      server.createContext("/", exchange -> answer(exchange, name));
      server.start();
      servers.add(server);
    }
  }

  /**
   * @param nodes how many nodes
   * @param cluster a name told apart in the nodes' names, e.g. "a": node1@a.example
   * @return the nodes of one cluster, each listing all of them in its GET /_membership
   */
  public static FakeCouchCluster of(int nodes, String cluster) throws IOException {
    List<String> names = new ArrayList<>();
    for (int i = 1; i <= nodes; i++) {
      names.add("node" + i + "@" + cluster + ".example");
    }
    return new FakeCouchCluster(nodes, names);
  }

  /** @return each node's base URL */
  public List<String> urls() {
    return servers.stream().map(server -> "http://127.0.0.1:" + server.getAddress().getPort()).toList();
  }

  /** @return -Dcouchdb.url for every node */
  public String url() {
    return String.join(",", urls());
  }

  /**
   * @param database a database created
   * @return "q=Q n=N" as it was created
   */
  public String created(String database) {
    Database db = databases.get(database);
    return db == null ? "not created" : "q=" + db.q() + " n=" + db.n();
  }

  /** @return the query strings the document writes came with ("null" for none) */
  public Set<String> writeQueries() {
    return Set.copyOf(writeQueries);
  }

  private void answer(HttpExchange exchange, String name) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    String query = exchange.getRequestURI().getQuery();
    exchange.getRequestBody().readAllBytes();
    requests.incrementAndGet();
    String[] parts = path.substring(1).split("/");
    if (path.equals("/")) {
      HttpReplies.json(exchange, 200, "{\"couchdb\":\"Welcome\",\"version\":\"3.5.0\"}");
    } else if (path.equals("/_membership")) {
      String list = "[\"" + String.join("\",\"", members) + "\"]";
      HttpReplies.json(exchange, 200, "{\"all_nodes\":" + list + ",\"cluster_nodes\":" + list + "}");
    } else if (path.equals("/_node/_local")) {
      HttpReplies.json(exchange, 200, "{\"name\":\"" + name + "\"}");
    } else if (path.equals("/_node/_local/_system")) {
      HttpReplies.json(exchange, 200, "{\"run_queue\":0,\"process_count\":500,\"memory\":{\"processes\":1000,"
          + "\"binary\":200},\"io_input\":10,\"io_output\":20}");
    } else if (path.equals("/_node/_local/_stats")) {
      HttpReplies.json(exchange, 200, "{\"couchdb\":{\"httpd\":{\"requests\":{\"value\":" + requests.get()
          + ",\"type\":\"counter\"}}}}");
    } else if (parts.length == 1) {
      database(exchange, method, parts[0], query);
    } else if (parts.length == 2 && parts[1].equals("_shards")) {
      shards(exchange, databases.get(parts[0]));
    } else if (parts.length == 2 && method.equals("PUT") && databases.containsKey(parts[0])) {
      databases.get(parts[0]).docs().incrementAndGet();
      writeQueries.add(String.valueOf(query));
      HttpReplies.json(exchange, 202, "{\"ok\":true,\"id\":\"" + parts[1] + "\",\"rev\":\"1-0\"}");
    } else {
      HttpReplies.json(exchange, 404, "{\"error\":\"not_found\",\"reason\":\"missing\"}");
    }
  }

  private void database(HttpExchange exchange, String method, String db, String query) throws IOException {
    switch (method) {
      case "PUT" -> {
        Map<String, String> options = parse(query);
        Database created = new Database(Integer.parseInt(options.getOrDefault("q", "2")),
            Integer.parseInt(options.getOrDefault("n", "3")), new AtomicLong());
        boolean fresh = databases.putIfAbsent(db, created) == null;
        HttpReplies.json(exchange, fresh ? 201 : 412, fresh ? "{\"ok\":true}"
            : "{\"error\":\"file_exists\",\"reason\":\"The database could not be created, the file already exists.\"}");
      }
      case "DELETE" -> HttpReplies.json(exchange, databases.remove(db) == null ? 404 : 200, "{\"ok\":true}");
      default -> {
        Database found = databases.get(db);
        if (found == null) {
          HttpReplies.json(exchange, 404, "{\"error\":\"not_found\",\"reason\":\"Database does not exist.\"}");
        } else {
          HttpReplies.json(exchange, 200, "{\"db_name\":\"" + db + "\",\"doc_count\":" + found.docs().get()
              + ",\"cluster\":{\"q\":" + found.q() + ",\"n\":" + found.n() + ",\"w\":2,\"r\":2}}");
        }
      }
    }
  }

  private void shards(HttpExchange exchange, Database db) throws IOException {
    if (db == null) {
      HttpReplies.json(exchange, 404, "{\"error\":\"not_found\",\"reason\":\"Database does not exist.\"}");
      return;
    }
    List<String> ranges = new ArrayList<>();
    long width = 0x1_0000_0000L / db.q();
    for (int i = 0; i < db.q(); i++) {
      List<String> holders = members.subList(0, Math.min(db.n(), members.size()));
      ranges.add(String.format("\"%08x-%08x\":[\"%s\"]", i * width, (i + 1) * width - 1,
          String.join("\",\"", holders)));
    }
    HttpReplies.json(exchange, 200, "{\"shards\":{" + String.join(",", ranges) + "}}");
  }

  private static Map<String, String> parse(String query) {
    Map<String, String> options = new ConcurrentHashMap<>();
    if (query != null) {
      for (String pair : query.split("&")) {
        String[] keyValue = pair.split("=", 2);
        options.put(keyValue[0], keyValue.length == 2 ? keyValue[1] : "");
      }
    }
    return options;
  }

  @Override
  public void close() {
    servers.forEach(server -> server.stop(0));
  }
}
