package couchbench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP server that greets like CouchDB 3 and then refuses logins, counting every request:
 * the one way to check how many requests a wrong password gets through. It refuses either every
 * request that carries credentials (a wrong password from the start) or only document writes
 * (a password changed while the run is going).
 */
public final class RefusingCouchDb implements AutoCloseable {

  private final HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private RefusingCouchDb(boolean onlyWrites) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> answer(exchange, onlyWrites));
    server.start();
  }

  /** @return a server that answers 401 to any request with credentials, GET / included */
  public static RefusingCouchDb refusingEverything() throws IOException {
    return new RefusingCouchDb(false);
  }

  /** @return a server that creates databases but answers 401 to document writes (POST, PUT /db/id) */
  public static RefusingCouchDb refusingWrites() throws IOException {
    return new RefusingCouchDb(true);
  }

  /** @return its base URL */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** @return "METHOD /path" of every request received, in order */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  private void answer(HttpExchange exchange, boolean onlyWrites) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    requests.add(method + " " + path);
    exchange.getRequestBody().readAllBytes();
    // A document write: POST (_bulk_docs, POST /db) or PUT /db/id; PUT /db creates a database.
    boolean write = method.equals("POST") || method.equals("PUT") && path.indexOf('/', 1) > 0;
    boolean refuse = onlyWrites ? write : exchange.getRequestHeaders().containsKey("Authorization");
    if (refuse) {
      send(exchange, 401, "{\"error\":\"unauthorized\",\"reason\":\"Name or password is incorrect.\"}");
    } else if (path.equals("/")) {
      send(exchange, 200, "{\"couchdb\":\"Welcome\",\"version\":\"3.4.2\"}");
    } else if (method.equals("PUT")) {
      send(exchange, 201, "{\"ok\":true}");
    } else {
      send(exchange, 200, "{\"ok\":true}");
    }
  }

  private static void send(HttpExchange exchange, int status, String json) throws IOException {
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
