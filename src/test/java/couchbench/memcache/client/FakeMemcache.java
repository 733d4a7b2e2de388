package couchbench.memcache.client;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A misbehaving memcache server on a plain ServerSocket: it reads each command (and the data block of a storage
 * command) and answers whatever the script says for that command line.
 */
public final class FakeMemcache implements AutoCloseable {

  /**
   * What to do about one command.
   *
   * @param bytes what to write back, possibly nothing
   * @param close whether to close the connection then
   */
  public record Answer(byte[] bytes, boolean close) {
    public static Answer reply(String text) {
      return new Answer(text.getBytes(StandardCharsets.UTF_8), false);
    }

    static Answer replyAndClose(String text) {
      return new Answer(text.getBytes(StandardCharsets.UTF_8), true);
    }

    static Answer nothing() {
      return new Answer(new byte[0], false);
    }
  }

  private final ServerSocket server;
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicInteger open = new AtomicInteger();
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  private volatile Function<String, Answer> script;

  public FakeMemcache(Function<String, Answer> script) throws IOException {
    this.script = script;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor = new Thread(this::accept, "fake-memcache-accept");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  /** Answers later commands with this script instead. */
  void script(Function<String, Answer> next) {
    script = next;
  }

  public InetSocketAddress address() {
    return new InetSocketAddress("127.0.0.1", server.getLocalPort());
  }

  /** @return how many connections were accepted so far */
  int connections() {
    return connections.get();
  }

  /** @return how many connections the client has not closed yet */
  int openConnections() {
    return open.get();
  }

  @Override
  public void close() throws IOException {
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        Socket socket = server.accept();
        connections.incrementAndGet();
        open.incrementAndGet();
        sockets.add(socket);
        Thread serve = new Thread(() -> serve(socket), "fake-memcache-conn");
        serve.setDaemon(true);
        serve.start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket socket) {
    try (socket) {
      InputStream in = new BufferedInputStream(socket.getInputStream());
      OutputStream out = socket.getOutputStream();
      for (String line = readLine(in); line != null; line = readLine(in)) {
        String[] parts = line.split(" ");
        if (List.of("set", "add", "replace", "append", "prepend", "cas").contains(parts[0])) {
          in.readNBytes(Integer.parseInt(parts[4]) + 2);
        }
        Answer answer = script.apply(line);
        out.write(answer.bytes());
        out.flush();
        if (answer.close()) {
          // Closing with requests still unread would send a reset, which may destroy the replies
          // already sent before the client reads them: end the output, let the client close.
          socket.shutdownOutput();
          in.transferTo(OutputStream.nullOutputStream());
          return;
        }
      }
    } catch (IOException e) {
      // the client went away
    } finally {
      open.decrementAndGet();
    }
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1; b = in.read()) {
      if (b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, Math.max(0, bytes.length - 1), StandardCharsets.UTF_8);
      }
      line.write(b);
    }
    return null;
  }
}
