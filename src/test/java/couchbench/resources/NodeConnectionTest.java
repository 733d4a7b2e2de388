package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.targets.CouchTarget;
import couchbench.targets.Credentials;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class NodeConnectionTest {

  @Test
  void shouldSendEveryGetOverOneConnectionWithTheLoginAndKeepThePasswordOutOfItsErrors() throws Exception {
    try (LoopbackServer server = new LoopbackServer(Integer.MAX_VALUE);
        NodeConnection connection = new NodeConnection(server.target())) {
      for (int i = 0; i < 3; i++) {
        assertEquals("{\"n\":" + (i + 1) + "}", new String(connection.get("/_node/_local/_system").body(),
            StandardCharsets.UTF_8));
      }
      assertEquals(1, server.connections, "connections opened for 3 GETs");
      assertTrue(server.requests.get(0).contains("Authorization: Basic "), server.requests.get(0));
      assertTrue(server.requests.get(0).startsWith("GET /_node/_local/_system HTTP/1.1"), server.requests.get(0));

      server.close();
      IOException refused = assertThrows(IOException.class, () -> connection.get("/_node/_local/_system"));
      assertTrue(refused.getMessage().startsWith("GET /_node/_local/_system at " + server.target().baseUrl() + ": "),
          refused.getMessage());
      assertFalse(refused.getMessage().contains("s3cret"), refused.getMessage());
    }
  }

  @Test
  void shouldOpenAnotherConnectionWhenTheServerClosedTheIdleOne() throws Exception {
    // A server that answers one request a connection and then closes it without saying so, as an idle timeout does.
    try (LoopbackServer server = new LoopbackServer(1);
        NodeConnection connection = new NodeConnection(server.target())) {
      for (int i = 0; i < 3; i++) {
        assertEquals(200, connection.get("/_node/_local/_stats/couchdb").status());
      }
      assertEquals(3, server.connections);
    }
  }

  /** Answers each GET with {"n":<count>} and Content-Length, over kept-alive connections, one at a time. */
  private static final class LoopbackServer implements AutoCloseable {
    final List<String> requests = new CopyOnWriteArrayList<>();
    volatile int connections;
    private volatile Socket current;
    private final ServerSocket listener = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    private final Thread thread;

    LoopbackServer(int repliesAConnection) throws IOException {
      thread = new Thread(() -> serve(repliesAConnection), "loopback-http");
      thread.setDaemon(true);
      thread.start();
    }

    CouchTarget target() {
      return new CouchTarget("http://127.0.0.1:" + listener.getLocalPort(), Optional.of(new Credentials("admin",
          "s3cret")), false);
    }

    private void serve(int repliesAConnection) {
      while (!listener.isClosed()) {
        try (Socket socket = listener.accept()) {
          current = socket;
          connections++;
          BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
              StandardCharsets.US_ASCII));
          for (int replies = 0; replies < repliesAConnection; replies++) {
            StringBuilder request = new StringBuilder();
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
              request.append(line).append("\r\n");
            }
            if (request.isEmpty()) {
              break;
            }
            requests.add(request.toString());
            String body = "{\"n\":" + requests.size() + "}";
            socket.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
          }
        } catch (IOException e) {
          // closed: the test is over
        }
      }
    }

    @Override
    public void close() throws IOException {
      listener.close();
      if (current != null) {
        current.close();
      }
    }
  }
}
