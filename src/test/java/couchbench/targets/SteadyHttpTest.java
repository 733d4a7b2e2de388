package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The wait for a reply, against a loopback server that answers /fast at once and /never not at all. */
class SteadyHttpTest {

  private final HttpClient client = HttpClient.newHttpClient();
  private final CountDownLatch released = new CountDownLatch(1);
  private HttpServer server;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/fast", exchange -> {
      byte[] body = "{\"ok\":true}".getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.createContext("/never", exchange -> {
      try {
        released.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    released.countDown();
    server.stop(0);
  }

  @Test
  void shouldReturnAReplyThatCameInTime() throws Exception {
    HttpResponse<String> reply = SteadyHttp.send(client, get("/fast"), Optional.of(Duration.ofSeconds(5)),
        HttpResponse.BodyHandlers.ofString());

    assertEquals(200, reply.statusCode());
    assertEquals("{\"ok\":true}", reply.body());
  }

  @Test
  void shouldEndTheWaitAtItsTimeoutWhenNoReplyComes() {
    long started = System.nanoTime();
    HttpTimeoutException late = assertThrows(HttpTimeoutException.class, () -> SteadyHttp.send(client, get("/never"),
        Optional.of(Duration.ofMillis(300)), HttpResponse.BodyHandlers.ofString()));

    long waitedMillis = (System.nanoTime() - started) / 1_000_000;
    assertTrue(waitedMillis >= 300 && waitedMillis < 5_000, "waited " + waitedMillis + " ms");
    assertEquals("no reply in time", late.getMessage());
  }

  @Test
  void shouldRefuseARequestThatCarriesItsOwnTimeout() {
    HttpRequest timed = HttpRequest.newBuilder(URI.create(base() + "/fast")).timeout(Duration.ofSeconds(1)).build();

    assertThrows(IllegalArgumentException.class, () -> SteadyHttp.send(client, timed, Optional.empty(),
        HttpResponse.BodyHandlers.discarding()));
  }

  private HttpRequest get(String path) {
    return HttpRequest.newBuilder(URI.create(base() + path)).GET().build();
  }

  private String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }
}
