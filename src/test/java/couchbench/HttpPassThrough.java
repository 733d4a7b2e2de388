package couchbench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback HTTP proxy in front of a real CouchDB or stand-in that passes every request on, except those its rule
 * answers itself (a front end with a body size limit, a server without an endpoint). It records every request, so a
 * test can tell what was attempted.
 */
public final class HttpPassThrough implements AutoCloseable {

  /** What the proxy answers itself. */
  @FunctionalInterface
  public interface Rule {

    /**
     * @param exchange a request, its body not read yet
     * @param length its Content-Length, 0 when none
     * @return whether the rule answered it (or dropped it by throwing); false passes it on
     */
    boolean answers(HttpExchange exchange, long length) throws IOException;
  }

  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final HttpServer server;
  private final String upstream;
  private final Rule rule;
  private final List<String> requests = new CopyOnWriteArrayList<>();

  /**
   * @param upstream the server to pass requests on to
   * @param rule what the proxy answers itself
   */
  public HttpPassThrough(String upstream, Rule rule) throws IOException {
    this.upstream = upstream;
    this.rule = rule;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.start();
  }

  /** @return its URL, http://127.0.0.1:PORT */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** @return "METHOD /path LENGTH" of every request received, in order */
  public List<String> requests() {
    return List.copyOf(requests);
  }

  private void answer(HttpExchange exchange) throws IOException {
    String lengthHeader = exchange.getRequestHeaders().getFirst("Content-Length");
    long length = lengthHeader == null ? 0 : Long.parseLong(lengthHeader);
    String method = exchange.getRequestMethod();
    requests.add(method + " " + exchange.getRequestURI().getPath() + " " + length);
    if (rule.answers(exchange, length)) {
      return;
    }
    byte[] body = exchange.getRequestBody().readAllBytes();
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
