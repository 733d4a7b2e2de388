package couchbench.targets;

import couchbench.memcache.codec.PrintableBytes;
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
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * Asks a server "version" in the memcache text protocol, in plain text or over TLS; memcached and MemcacheDB both
 * answer "VERSION x", a server or proxy without the command "ERROR"; and "mn" for the meta protocol. Anything else is
 * named as it came: silence, a refused connection, a closed one, bytes that are not a memcache line (shown,
 * printable), a TLS port asked in plain text, or a TLS handshake that failed (one line, as {@link TlsFailure} says).
 */
final class MemcacheProbe {

  private static final int CONNECT_TIMEOUT_MILLIS = 2000;
  private static final int REPLY_TIMEOUT_MILLIS = 3000;
  private static final int MAX_LINE = 200;
  private static final int SHOWN_BYTES = 24;

  private MemcacheProbe() {}

  /** Probes one "host:port" in plain text. */
  static Probe probe(String server) {
    return probe(server, Optional.empty());
  }

  /**
   * Probes one "host:port".
   *
   * @param server the server
   * @param tls the run's memcache TLS; empty for plain text
   * @return what answered
   */
  static Probe probe(String server, Optional<ServerTls> tls) {
    InetSocketAddress address = resolved(server);
    boolean connected = false;
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    try (Socket socket = new Socket()) {
      socket.connect(address, CONNECT_TIMEOUT_MILLIS);
      connected = true;
      boolean lineEnded = ask(over(socket, address, tls), "version", reply);
      String line = reply.toString(StandardCharsets.US_ASCII).strip();
      if (lineEnded && line.startsWith("VERSION ")) {
        return new Probe(Probe.Outcome.ANSWERS, line);
      }
      if (lineEnded && line.equals("ERROR")) {
        return new Probe(Probe.Outcome.ANSWERS, "no version: it answers ERROR to version, as a memcache server or"
            + " proxy without that command does");
      }
      return notMemcache(address, reply, lineEnded, tls.isPresent());
    } catch (SSLException e) {
      return new Probe(Probe.Outcome.TLS_FAILED, TlsFailure.describe(e, server, tls.orElseThrow()).orElseThrow());
    } catch (ConnectException e) {
      return new Probe(Probe.Outcome.REFUSED, "connection refused");
    } catch (SocketTimeoutException e) {
      if (reply.size() > 0) {
        return notMemcache(address, reply, false, tls.isPresent());
      }
      return new Probe(Probe.Outcome.NO_ANSWER, connected
          ? "it accepts connections but sent no reply to version within " + REPLY_TIMEOUT_MILLIS / 1000 + " s"
          : "no connection within " + CONNECT_TIMEOUT_MILLIS / 1000 + " s");
    } catch (UnknownHostException e) {
      return new Probe(Probe.Outcome.NO_ANSWER, "unknown host");
    } catch (IOException e) {
      return reply.size() > 0 || connected ? notMemcache(address, reply, false, tls.isPresent())
          : new Probe(Probe.Outcome.NO_ANSWER, String.valueOf(e.getMessage()));
    }
  }

  /**
   * Asks "mn", the meta protocol's no-op: memcached 1.6 answers MN, a server without the meta protocol (MemcacheDB
   * 1.2) ERROR.
   *
   * @param server "host:port"
   * @param tls the run's memcache TLS; empty for plain text
   * @return the reply line, or what went wrong, e.g. "nothing within 3 s"
   */
  static String metaNoop(String server, Optional<ServerTls> tls) {
    return reply(server, tls, "mn");
  }

  /**
   * Sends one command line on a connection of its own and reads the first line of the reply.
   *
   * @param server "host:port"
   * @param tls the run's memcache TLS; empty for plain text
   * @param command e.g. "mn", "flush_all"
   * @return the reply line, or what went wrong, e.g. "nothing within 3 s"
   */
  static String reply(String server, Optional<ServerTls> tls, String command) {
    InetSocketAddress address = resolved(server);
    ByteArrayOutputStream reply = new ByteArrayOutputStream();
    try (Socket socket = new Socket()) {
      socket.connect(address, CONNECT_TIMEOUT_MILLIS);
      ask(over(socket, address, tls), command, reply);
      String line = reply.toString(StandardCharsets.US_ASCII).strip();
      return line.isEmpty() ? "nothing (it closed the connection)" : Console.quote(line);
    } catch (SocketTimeoutException e) {
      return "nothing within " + REPLY_TIMEOUT_MILLIS / 1000 + " s";
    } catch (IOException e) {
      return "nothing (" + e.getMessage() + ")";
    }
  }

  private static InetSocketAddress resolved(String server) {
    InetSocketAddress unresolved = MemcacheTarget.address(server);
    return new InetSocketAddress(unresolved.getHostString(), unresolved.getPort());
  }

  /**
   * The connected socket itself in plain text; over TLS, a socket on it whose handshake is done, with the server's
   * certificate checked as the load's connections check it (trust, then the host name).
   */
  private static Socket over(Socket plain, InetSocketAddress address, Optional<ServerTls> tls) throws IOException {
    if (tls.isEmpty()) {
      return plain;
    }
    plain.setSoTimeout(REPLY_TIMEOUT_MILLIS);
    SSLSocket socket = (SSLSocket) tls.get().sslContext().getSocketFactory().createSocket(plain,
        address.getHostString(), address.getPort(), true);
    SSLParameters parameters = socket.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    socket.setSSLParameters(parameters);
    socket.startHandshake();
    return socket;
  }

  /** Sends one command line and reads the reply's first line into {@code reply}; whether a line end came. */
  private static boolean ask(Socket socket, String command, ByteArrayOutputStream reply) throws IOException {
    socket.setSoTimeout(REPLY_TIMEOUT_MILLIS);
    socket.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return readLine(socket.getInputStream(), reply);
  }

  /** What came back, when it is not memcache: a TLS port, a closed connection, or the bytes it sent. */
  private static Probe notMemcache(InetSocketAddress address, ByteArrayOutputStream reply, boolean lineEnded,
      boolean overTls) {
    if (!overTls && speaksTls(address)) {
      return new Probe(Probe.Outcome.NOT_IT, "it is a TLS port: set -D" + ServerTls.MEMCACHE_TLS + "=true (with -D"
          + TlsServer.MEMCACHE.caFile() + "=PEM to trust its certificate), or give the server's plain port");
    }
    byte[] bytes = reply.toByteArray();
    if (bytes.length == 0) {
      return new Probe(Probe.Outcome.NOT_IT, "it closed the connection without a reply to version");
    }
    String what = lineEnded ? "a line that is not memcache's reply to version"
        : bytes.length >= MAX_LINE ? "more than " + MAX_LINE + " bytes without a line end, not a memcache line"
        : bytes.length + " bytes that are not a memcache line";
    return new Probe(Probe.Outcome.NOT_IT, "it sent " + what + ": " + printable(bytes));
  }

  /**
   * Reads up to the first line end, at most {@link #MAX_LINE} bytes: a server that is not memcache may never send one.
   *
   * @return whether a line end came
   */
  private static boolean readLine(InputStream in, ByteArrayOutputStream line) throws IOException {
    for (int b = in.read(); b != -1 && line.size() < MAX_LINE; b = in.read()) {
      if (b == '\n') {
        return true;
      }
      line.write(b);
    }
    return false;
  }

  /**
   * @param bytes what a server sent
   * @return its first bytes in quotes, as {@link PrintableBytes} shows them, and "..." when there were more
   */
  static String printable(byte[] bytes) {
    return "\"" + PrintableBytes.of(bytes, SHOWN_BYTES) + (bytes.length > SHOWN_BYTES ? "\"..." : "\"");
  }

  /**
   * Whether the server completes a TLS handshake: a memcached with TLS on (-Z), or a TLS proxy, answers a plain
   * "version" with an alert or by closing. No certificate is checked, as nothing is sent over it: this only names what
   * listens.
   */
  private static boolean speaksTls(InetSocketAddress address) {
    try {
      SSLContext tls = SSLContext.getInstance("TLS");
      tls.init(null, new TrustManager[] {new NamesOnly()}, null);
      try (Socket plain = new Socket()) {
        plain.connect(address, CONNECT_TIMEOUT_MILLIS);
        plain.setSoTimeout(REPLY_TIMEOUT_MILLIS);
        try (SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain,
            address.getHostString(), address.getPort(), false)) {
          socket.startHandshake();
          return true;
        }
      }
    } catch (IOException | GeneralSecurityException e) {
      return false;
    }
  }

  /** Trusts any certificate: the handshake only tells a TLS port from another, and nothing goes over it. */
  private static final class NamesOnly implements X509TrustManager {
    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {}

    @Override
    public X509Certificate[] getAcceptedIssuers() {
      return new X509Certificate[0];
    }
  }
}
