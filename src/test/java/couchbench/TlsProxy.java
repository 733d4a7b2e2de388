package couchbench;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;

/**
 * A TLS-terminating proxy on a free loopback port in front of a plain-http server (the CouchDB stand-in), as a
 * CouchDB behind https: it shows one certificate, may require a client certificate, and passes the bytes on
 * untouched. It counts the handshakes it completed.
 */
public final class TlsProxy implements AutoCloseable {

  private final AtomicInteger handshakes = new AtomicInteger();
  private final Forwarder forwarder;

  private TlsProxy(SslContext tls, int upstreamPort) throws InterruptedException {
    forwarder = Forwarder.withFront(upstreamPort, channel -> {
      SslHandler handshake = tls.newHandler(channel.alloc());
      handshake.handshakeFuture().addListener(done -> {
        if (done.isSuccess()) {
          handshakes.incrementAndGet();
        }
      });
      channel.pipeline().addLast(handshake);
    });
  }

  /**
   * @param upstreamPort the plain-http server's port on 127.0.0.1
   * @param server the certificate the proxy shows, with its key
   * @param requiredClient when present, the only client certificate accepted, and one is required
   * @return the running proxy
   */
  public static TlsProxy start(int upstreamPort, TestCertificates.Identity server,
      Optional<X509Certificate> requiredClient) throws SSLException, InterruptedException {
    SslContextBuilder builder = SslContextBuilder.forServer(server.key(), server.certificate())
        .sslProvider(SslProvider.JDK);
    requiredClient.ifPresent(client -> builder.trustManager(client).clientAuth(ClientAuth.REQUIRE));
    return new TlsProxy(builder.build(), upstreamPort);
  }

  /** @return https://127.0.0.1:PORT */
  public String url() {
    return "https://127.0.0.1:" + forwarder.port();
  }

  /** @return the TLS handshakes completed so far */
  public int handshakes() {
    return handshakes.get();
  }

  @Override
  public void close() {
    forwarder.close();
  }
}
