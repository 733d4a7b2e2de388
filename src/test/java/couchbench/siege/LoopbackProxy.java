package couchbench.siege;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A misbehaving server for a test: a proxy on a free loopback port in front of a real server on 127.0.0.1, which
 * serves each client connection with a connection of its own to the server, as {@link #serve} says. Blocking sockets,
 * a thread per direction and connection: enough for a test's few users.
 */
abstract class LoopbackProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final int upstreamPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  /** @param upstreamPort the server's port on 127.0.0.1 */
  LoopbackProxy(int upstreamPort) throws IOException {
    this.upstreamPort = upstreamPort;
    listener = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
    start(this::accept);
  }

  /** @return "127.0.0.1:PORT" */
  String address() {
    return "127.0.0.1:" + listener.getLocalPort();
  }

  /**
   * Serves one client connection until either side goes away; both are closed after it.
   *
   * @param client the client's connection
   * @param server the proxy's connection to the server
   */
  abstract void serve(Socket client, Socket server) throws IOException;

  /** Passes every byte from one side to the other, then closes the other side's output. */
  static void relay(InputStream from, OutputStream to) {
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

  /** Runs a task on a daemon thread of its own. */
  static void start(Runnable task) {
    Thread thread = new Thread(task, "loopback-proxy");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(LoopbackProxy::close);
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket("127.0.0.1", upstreamPort);
        sockets.addAll(List.of(client, server));
        start(() -> {
          try {
            serve(client, server);
          } catch (IOException e) {
            // either side went away
          } finally {
            close(client);
            close(server);
          }
        });
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private static void close(Socket socket) {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
