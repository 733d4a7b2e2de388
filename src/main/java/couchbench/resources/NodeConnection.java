package couchbench.resources;

import couchbench.couchdb.CouchReply;
import couchbench.targets.CouchTarget;
import couchbench.targets.CouchWaits;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One kept-alive HTTP/1.1 connection to a CouchDB node, over which the sampler sends its GETs each second.
 *
 * <p>Not the JDK's HTTP client, which the setup uses: its asynchronous exchange runs each request on three threads and
 * through code that a load generator compiling at C1 keeps compiling while the load runs, because a read once a second
 * warms slowly; it cost BulkInsert's client some 0.3 ms of CPU a request at B=64 (docs/benchmarks.md). A blocking
 * socket on the sampler's own thread runs a few small methods. Waits are timed on the monotonic clock, as
 * {@code SteadyHttp}'s are.
 */
final class NodeConnection implements AutoCloseable {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final CouchTarget node;
  private final String host;
  private final int port;
  private final byte[] headers;
  private final Duration timeout;
  private Socket socket;
  private HttpReplyReader reader;

  /** @param node the node, its credentials and TLS, and how long a reply may take */
  NodeConnection(CouchTarget node) {
    this.node = node;
    URI uri = URI.create(node.baseUrl());
    this.host = uri.getHost();
    boolean https = "https".equals(uri.getScheme());
    this.port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
    this.headers = ("Host: " + uri.getAuthority() + "\r\nAccept: application/json\r\n"
        + node.credentials().map(login -> "Authorization: " + login.authorization() + "\r\n").orElse("") + "\r\n")
        .getBytes(StandardCharsets.US_ASCII);
    this.timeout = node.waits().reply();
  }

  /**
   * Sends {@code GET path} and reads the reply whole; a connection the server closed while idle is opened again once.
   *
   * @param path the path below the server, e.g. "/_node/_local/_system"
   * @return the reply, whatever its status
   * @throws IOException no connection, no reply within -Dcouchdb.timeout, or a reply that is not HTTP/1.x
   */
  CouchReply get(String path) throws IOException {
    try {
      return exchangeOrRetry(path);
    } catch (IOException e) {
      close();
      throw new IOException("GET " + path + " at " + node.baseUrl() + ": " + e.getMessage(), e);
    }
  }

  private CouchReply exchangeOrRetry(String path) throws IOException {
    boolean reused = socket != null;
    try {
      return exchange(path);
    } catch (IOException e) {
      close();
      // A kept-alive connection may have been closed by the server between two seconds; a new one's failure is real.
      if (!reused || e instanceof SocketTimeoutException) {
        throw e;
      }
      return exchange(path);
    }
  }

  private CouchReply exchange(String path) throws IOException {
    if (socket == null) {
      open();
    }
    // One write, one segment: the request line and the headers built once for the node.
    byte[] line = ("GET " + path + " HTTP/1.1\r\n").getBytes(StandardCharsets.US_ASCII);
    byte[] request = Arrays.copyOf(line, line.length + headers.length);
    System.arraycopy(headers, 0, request, line.length, headers.length);
    OutputStream out = socket.getOutputStream();
    out.write(request);
    HttpReplyReader.Reply reply;
    try {
      reply = reader.read(System.nanoTime() + timeout.toNanos());
    } catch (SocketTimeoutException e) {
      throw new SocketTimeoutException("no whole reply within " + timeout.toSeconds() + " s (-D"
          + CouchWaits.REPLY_SETTING + "=SECONDS waits longer)");
    }
    if (!reply.keepAlive()) {
      close();
    }
    return new CouchReply(reply.status(), reply.contentType(), reply.body());
  }

  private void open() throws IOException {
    Socket plain = new Socket();
    try {
      plain.setTcpNoDelay(true);
      plain.connect(new InetSocketAddress(host, port), (int) CONNECT_TIMEOUT.toMillis());
      socket = node.baseUrl().startsWith("https:") ? secured(plain) : plain;
    } catch (IOException e) {
      plain.close();
      throw e;
    }
    reader = new HttpReplyReader(socket);
  }

  private Socket secured(Socket plain) throws IOException {
    SSLSocket tls = (SSLSocket) node.tls().sslContext().getSocketFactory().createSocket(plain, host, port, true);
    if (!node.tls().insecure()) {
      SSLParameters parameters = tls.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      tls.setSSLParameters(parameters);
    }
    tls.setSoTimeout((int) CONNECT_TIMEOUT.toMillis());
    tls.startHandshake();
    return tls;
  }

  @Override
  public void close() {
    if (socket != null) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing is all that was asked
      }
      socket = null;
      reader = null;
    }
  }
}
