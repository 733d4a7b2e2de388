package couchbench.bulkinsert;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import couchbench.HttpReplies;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP server that greets like CouchDB 3 and then refuses logins, counting every request:
 * the one way to check how many requests a wrong password gets through. It refuses either every
 * request that carries credentials (a wrong password from the start) or only document writes
 * (a password changed while the run is going).
 */
final class RefusingCouchDb implements AutoCloseable {

  private final HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private RefusingCouchDb(boolean onlyWrites) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> answer(exchange, onlyWrites));
    server.start();
  }

  /** @return a server that answers 401 to any request with credentials, GET / included */
  static RefusingCouchDb refusingEverything() throws IOException {
    return new RefusingCouchDb(false);
  }

  /** @return a server that creates databases but answers 401 to document writes */
  static RefusingCouchDb refusingWrites() throws IOException {
    return new RefusingCouchDb(true);
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** @return "METHOD /path" of every request received, in order */
  List<String> requests() {
    return List.copyOf(requests);
  }

  private void answer(HttpExchange exchange, boolean onlyWrites) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    requests.add(method + " " + path);
    exchange.getRequestBody().readAllBytes();
    boolean write = method.equals("POST");
    boolean refuse = onlyWrites ? write : exchange.getRequestHeaders().containsKey("Authorization");
    if (refuse) {
      HttpReplies.json(exchange, 401, "{\"error\":\"unauthorized\",\"reason\":\"Name or password is incorrect.\"}");
    } else if (path.equals("/")) {
      HttpReplies.json(exchange, 200, "{\"couchdb\":\"Welcome\",\"version\":\"3.4.2\"}");
    } else if (method.equals("PUT")) {
      HttpReplies.json(exchange, 201, "{\"ok\":true}");
    } else {
      HttpReplies.json(exchange, 200, "{\"ok\":true}");
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
