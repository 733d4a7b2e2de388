package couchbench.attachment;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import couchbench.HttpReplies;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback proxy in front of a real CouchDB stand-in that refuses large request bodies, as a
 * front end with a body size limit would: above one size it answers 413 with CouchDB's error, above
 * a second it drops the connection without a reply. Everything else is passed through. It records
 * every request, so a test can tell which uploads were attempted.
 */
final class SizeLimitProxy implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final HttpServer server;
  private final String upstream;
  private final long refuseAbove;
  private final long dropAbove;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  /**
   * @param upstream the server to pass requests on to
   * @param refuseAbove bodies longer than this get a 413
   * @param dropAbove bodies longer than this get no reply: the connection is closed
   */
  SizeLimitProxy(String upstream, long refuseAbove, long dropAbove) throws IOException {
    this.upstream = upstream;
    this.refuseAbove = refuseAbove;
    this.dropAbove = dropAbove;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** @return "METHOD /path LENGTH" of every request received, in order */
  List<String> requests() {
    return List.copyOf(requests);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String lengthHeader = exchange.getRequestHeaders().getFirst("Content-Length");
    long length = lengthHeader == null ? 0 : Long.parseLong(lengthHeader);
    String method = exchange.getRequestMethod();
    requests.add(method + " " + exchange.getRequestURI().getPath() + " " + length);
    if (length > dropAbove) {
      // An exception out of the handler makes the JDK's server close the connection, unanswered.
      throw new IOException("dropping a request of " + length + " bytes");
    }
    byte[] body = exchange.getRequestBody().readAllBytes();
    if (length > refuseAbove) {
      HttpReplies.json(exchange, 413, "{\"error\":\"too_large\",\"reason\":\"the request entity is too large\"}");
      return;
    }
    HttpRequest.Builder forward = HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
        .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
    for (String header : List.of("Content-Type", "Accept", "Authorization")) {
      String value = exchange.getRequestHeaders().getFirst(header);
      if (value != null) {
        forward.header(header, value);
      }
    }
    try {
      HttpResponse<byte[]> response = HTTP.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
      HttpReplies.send(exchange, response.statusCode(),
          response.headers().firstValue("Content-Type").orElse("application/json"), response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
