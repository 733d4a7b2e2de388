package couchbench.siege;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A memcache server that answers every set twice, as MemcacheDB does for a noreply it ignores: a loopback proxy in
 * front of a real memcached that passes every byte through, but writes each STORED line twice, in one write. One
 * thread per direction and connection: enough for a test's few users.
 */
final class SetAnsweredTwiceProxy implements AutoCloseable {

  private static final byte[] STORED = "STORED\r\n".getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket listener;
  private final int upstreamPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** @param upstreamPort memcached's port on 127.0.0.1 */
  SetAnsweredTwiceProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    start(this::accept);
  }

  /** @return "127.0.0.1:PORT" */
  String address() {
    return "127.0.0.1:" + listener.getLocalPort();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket("127.0.0.1", upstreamPort);
        sockets.addAll(List.of(client, server));
        start(() -> relay(client.getInputStream(), server.getOutputStream()));
        start(() -> storedTwice(server, client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Passes the server's replies line by line, each STORED twice; flushes when the server has sent no more. */
  private static void storedTwice(Socket server, Socket client) {
    try (InputStream in = new BufferedInputStream(server.getInputStream());
        OutputStream out = new BufferedOutputStream(client.getOutputStream())) {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      for (int b = in.read(); b != -1; b = in.read()) {
        line.write(b);
        if (b != '\n') {
          continue;
        }
        byte[] bytes = line.toByteArray();
        out.write(bytes);
        if (Arrays.equals(bytes, STORED)) {
          out.write(bytes);
        }
        line.reset();
        if (in.available() == 0) {
          out.flush();
        }
      }
    } catch (IOException e) {
      // either side went away
    } finally {
      close(server);
      close(client);
    }
  }

  private static void relay(InputStream from, OutputStream to) {
    try {
      from.transferTo(to);
    } catch (IOException e) {
      // either side went away
    } finally {
      try {
        to.close();
      } catch (IOException e) {
        // already closed
      }
    }
  }

  private interface Task {
    void run() throws IOException;
  }

  private static void start(Task task) {
    Thread thread = new Thread(() -> {
      try {
        task.run();
      } catch (IOException e) {
        // either side went away
      }
    }, "set-answered-twice-proxy");
    thread.setDaemon(true);
    thread.start();
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(SetAnsweredTwiceProxy::close);
  }
}
