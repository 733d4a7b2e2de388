package couchbench.siege;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A loopback proxy in front of a real CouchDB stand-in that answers 503, as CouchDB does when it is overloaded or a
 * node is down, for a while: from its Nth document write on, for a given time, then passes everything through again.
 * Requests answered 503 do not reach the server.
 */
final class UnavailableForAWhileProxy implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final byte[] UNAVAILABLE =
      "{\"error\":\"service_unavailable\",\"reason\":\"Service unavailable\"}\n".getBytes(StandardCharsets.UTF_8);

  private final HttpServer server;
  private final String upstream;
  private final long after;
  private final long forNanos;
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong unavailableSince = new AtomicLong(-1);
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong passedAfter = new AtomicLong();

  /**
   * @param upstream the server's URL
   * @param after the document writes (PUT) passed before the 503s start
   * @param lasting how long the 503s last
   */
  UnavailableForAWhileProxy(String upstream, long after, Duration lasting) throws IOException {
    this.upstream = upstream;
    this.after = after;
    this.forNanos = lasting.toNanos();
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", this::answer);
    server.setExecutor(Executors.newFixedThreadPool(8));
    server.start();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** @return the requests answered 503 */
  long refused() {
    return refused.get();
  }

  /** @return the writes passed through after the 503s ended */
  long passedAfter() {
    return passedAfter.get();
  }

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (unavailable(exchange.getRequestMethod())) {
        refused.incrementAndGet();
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(503, UNAVAILABLE.length);
        exchange.getResponseBody().write(UNAVAILABLE);
        return;
      }
      byte[] body = exchange.getRequestBody().readAllBytes();
      HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(upstream + exchange.getRequestURI()))
          .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.ofByteArray(body));
      String type = exchange.getRequestHeaders().getFirst("Content-Type");
      if (type != null) {
        request.header("Content-Type", type);
      }
      HttpResponse<byte[]> reply = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      reply.headers().firstValue("Content-Type").ifPresent(t -> exchange.getResponseHeaders().add("Content-Type", t));
      exchange.sendResponseHeaders(reply.statusCode(), reply.body().length == 0 ? -1 : reply.body().length);
      exchange.getResponseBody().write(reply.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Whether this request falls in the 503 window, which its Nth write opens. */
  private boolean unavailable(String method) {
    long now = System.nanoTime();
    if (method.equals("PUT") && writes.incrementAndGet() == after) {
      unavailableSince.set(now);
    }
    long since = unavailableSince.get();
    boolean unavailable = since >= 0 && now - since < forNanos && method.equals("PUT") && writes.get() > after;
    if (since >= 0 && now - since >= forNanos && method.equals("PUT")) {
      passedAfter.incrementAndGet();
    }
    return unavailable;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
