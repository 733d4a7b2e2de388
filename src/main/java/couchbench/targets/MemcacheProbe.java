package couchbench.targets;

import couchbench.startup.Console;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;

/**
 * Asks a server "version" in the memcache text protocol; memcached and MemcacheDB both answer "VERSION x". Asks "mn"
 * for the meta protocol.
 */
final class MemcacheProbe {

  private static final int CONNECT_TIMEOUT_MILLIS = 2000;
  private static final int REPLY_TIMEOUT_MILLIS = 3000;
  private static final int MAX_LINE = 200;

  private MemcacheProbe() {}

  /** Probes one "host:port". */
  static Probe probe(String server) {
    InetSocketAddress unresolved = MemcacheTarget.address(server);
    boolean connected = false;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(unresolved.getHostString(), unresolved.getPort()), CONNECT_TIMEOUT_MILLIS);
      connected = true;
      String line = ask(socket, "version");
      if (line.startsWith("VERSION ")) {
        return new Probe(Probe.Outcome.ANSWERS, line);
      }
      return new Probe(Probe.Outcome.NOT_IT, line.isEmpty() ? "it closed the connection" : Console.quote(line));
    } catch (ConnectException e) {
      return new Probe(Probe.Outcome.REFUSED, "connection refused");
    } catch (SocketTimeoutException e) {
      return new Probe(Probe.Outcome.NO_ANSWER, connected
          ? "no reply within " + REPLY_TIMEOUT_MILLIS / 1000 + " s"
          : "no connection within " + CONNECT_TIMEOUT_MILLIS / 1000 + " s");
    } catch (UnknownHostException e) {
      return new Probe(Probe.Outcome.NO_ANSWER, "unknown host");
    } catch (IOException e) {
      return new Probe(Probe.Outcome.NO_ANSWER, String.valueOf(e.getMessage()));
    }
  }

  /**
   * Asks "mn", the meta protocol's no-op: memcached 1.6 answers MN, a server without the meta protocol (MemcacheDB
   * 1.2) ERROR.
   *
   * @param server "host:port"
   * @return the reply line, or what went wrong, e.g. "no reply within 3 s"
   */
  static String metaNoop(String server) {
    InetSocketAddress unresolved = MemcacheTarget.address(server);
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(unresolved.getHostString(), unresolved.getPort()), CONNECT_TIMEOUT_MILLIS);
      String line = ask(socket, "mn");
      return line.isEmpty() ? "nothing (it closed the connection)" : Console.quote(line);
    } catch (SocketTimeoutException e) {
      return "nothing within " + REPLY_TIMEOUT_MILLIS / 1000 + " s";
    } catch (IOException e) {
      return "nothing (" + e.getMessage() + ")";
    }
  }

  /** Sends one command line and reads the first line of the reply. */
  private static String ask(Socket socket, String command) throws IOException {
    socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
    socket.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return readLine(socket.getInputStream());
  }

  /** Reads up to the first line end; a server that is not memcache may never send one, hence the length cap. */
  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != -1 && b != '\n' && line.size() < MAX_LINE; b = in.read()) {
      line.write(b);
    }
    return line.toString(StandardCharsets.US_ASCII).strip();
  }
}
