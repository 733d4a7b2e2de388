package couchbench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP server that greets like CouchDB 3, counting every request, for what a real server cannot be made
 * to do: refuse logins (every request that carries credentials, for a wrong password from the start, or only
 * document writes, for a password changed while the run is going), or answer writes with hostile replies.
 * Databases are created and deleted as asked.
 */
public final class FakeCouchDb implements AutoCloseable {

  /** What a document write (POST, or PUT /db/id) gets. */
  @FunctionalInterface
  private interface WriteAnswer {
    void answer(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  private FakeCouchDb(boolean refuseCredentials, WriteAnswer writes) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> answer(exchange, refuseCredentials, writes));
    server.start();
  }

  /** @return a server that answers 401 to any request with credentials, GET / included */
  public static FakeCouchDb refusingEverything() throws IOException {
    return new FakeCouchDb(true, FakeCouchDb::refuse);
  }

  /** @return a server that creates databases but answers 401 to document writes (POST, PUT /db/id) */
  public static FakeCouchDb refusingWrites() throws IOException {
    return new FakeCouchDb(false, FakeCouchDb::refuse);
  }

  /** @return a server that answers every document write 201 with this body, whatever was sent */
  public static FakeCouchDb answeringWrites(String json) throws IOException {
    return new FakeCouchDb(false, exchange -> HttpReplies.json(exchange, 201, json));
  }

  /** @return a server that announces a reply body to every document write, sends part of it, and hangs up */
  public static FakeCouchDb truncatingWrites() throws IOException {
    return new FakeCouchDb(false, exchange -> {
      exchange.sendResponseHeaders(201, 100);
      exchange.getResponseBody().write("[{\"ok\":true,".getBytes(StandardCharsets.UTF_8));
      exchange.getResponseBody().flush();
      exchange.close(); // short of the length announced: the server drops the connection
    });
  }

  /** @return its base URL */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** @return "METHOD /path" of every request received, in order */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  private void answer(HttpExchange exchange, boolean refuseCredentials, WriteAnswer writes) throws IOException {
    String method = exchange.getRequestMethod();
    String path = exchange.getRequestURI().getPath();
    requests.add(method + " " + path);
    exchange.getRequestBody().readAllBytes();
    if (refuseCredentials && exchange.getRequestHeaders().containsKey("Authorization")) {
      refuse(exchange);
    } else if (method.equals("POST") || method.equals("PUT") && path.indexOf('/', 1) > 0) {
      // A document write: POST (_bulk_docs, POST /db) or PUT /db/id; PUT /db creates a database.
      writes.answer(exchange);
    } else if (path.equals("/")) {
      HttpReplies.json(exchange, 200, "{\"couchdb\":\"Welcome\",\"version\":\"3.4.2\"}");
    } else if (method.equals("PUT")) {
      HttpReplies.json(exchange, 201, "{\"ok\":true}");
    } else {
      HttpReplies.json(exchange, 200, "{\"ok\":true}");
    }
  }

  private static void refuse(HttpExchange exchange) throws IOException {
    HttpReplies.json(exchange, 401, "{\"error\":\"unauthorized\",\"reason\":\"Name or password is incorrect.\"}");
  }


  @Override
  public void close() {
    server.stop(0);
  }
}
