package couchbench.siege;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A memcache-compatible server whose stats lack cmd_set, as a proxy's or another store's may: a loopback proxy in front
 * of a real memcached that passes every byte through, except on a connection that starts with "stats", whose replies
 * it passes without their "STAT cmd_set" line. One thread per direction and connection: enough for a test's few users.
 */
final class NoCmdSetProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final int upstreamPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** @param upstreamPort memcached's port on 127.0.0.1 */
  NoCmdSetProxy(int upstreamPort) throws IOException {
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
        start(() -> serve(client, server));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  /** Reads the client's first line, then relays both ways; a stats connection's replies lose their cmd_set line. */
  private void serve(Socket client, Socket server) {
    try {
      InputStream in = client.getInputStream();
      ByteArrayOutputStream first = new ByteArrayOutputStream();
      for (int b = in.read(); b != -1; b = in.read()) {
        first.write(b);
        if (b == '\n') {
          break;
        }
      }
      OutputStream toServer = server.getOutputStream();
      toServer.write(first.toByteArray());
      boolean stats = first.toString(StandardCharsets.US_ASCII).startsWith("stats");
      start(() -> relay(in, toServer));
      if (stats) {
        withoutCmdSet(server.getInputStream(), client.getOutputStream());
      } else {
        relay(server.getInputStream(), client.getOutputStream());
      }
    } catch (IOException e) {
      // either side went away
    } finally {
      close(client);
      close(server);
    }
  }

  private static void withoutCmdSet(InputStream from, OutputStream to) throws IOException {
    BufferedReader lines = new BufferedReader(new InputStreamReader(from, StandardCharsets.US_ASCII));
    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
      if (!line.startsWith("STAT cmd_set ")) {
        to.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        to.flush();
      }
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

  private static void start(Runnable task) {
    Thread thread = new Thread(task, "no-cmd_set-proxy");
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
    sockets.forEach(NoCmdSetProxy::close);
  }
}
