package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.TestCertificates;
import couchbench.TlsProxy;
import couchbench.process.FreePort;
import couchbench.startup.Settings;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.http.util.SslContexts;
import io.gatling.http.util.SslContextsFactory;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.net.URI;
import java.nio.file.Path;
import java.security.Security;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import scala.Option;

/**
 * Gatling's own TLS contexts, made by its SslContextsFactory from couchbench's gatling.conf as in a run, check
 * CouchDB's certificate with the run's trust: what the setup client refuses, Gatling's client refuses too. (A whole
 * run cannot show it: the setup client stops the run first.)
 */
class GatlingTlsIT {

  private static final String ALGORITHM_PROPERTY = "ssl.TrustManagerFactory.algorithm";

  private static String defaultAlgorithm;
  private static TestCertificates.Identity server;
  private static TestCertificates.Identity otherHost;
  private static TlsProxy trusted;
  private static TlsProxy misnamed;
  private static EventLoopGroup loop;
  private static ServerTls installed;

  @BeforeAll
  static void start() throws Exception {
    defaultAlgorithm = Security.getProperty(ALGORITHM_PROPERTY);
    Path folder = Path.of("target", "it-tls", "gatling-" + System.nanoTime());
    server = TestCertificates.selfSigned(folder, "server", "ip:127.0.0.1");
    otherHost = TestCertificates.selfSigned(folder, "elsewhere", "dns:couchdb.example.test");
    // Nothing answers behind the proxies: only the handshake matters here.
    trusted = TlsProxy.start(FreePort.pick(), server, Optional.empty());
    misnamed = TlsProxy.start(FreePort.pick(), otherHost, Optional.empty());
    loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stop() {
    Security.setProperty(ALGORITHM_PROPERTY, defaultAlgorithm);
    trusted.close();
    misnamed.close();
    loop.shutdownGracefully().syncUninterruptibly();
  }

  @Test
  void shouldTrustTheGivenCertificateAndNothingElse() throws Exception {
    install(Map.of(TlsServer.COUCHDB.caFile(), server.certificatePem().toString()), trusted);
    assertEquals(Optional.empty(), handshake(trusted), "the certificate of -Dcouchdb.caFile is trusted");

    install(Map.of(), trusted);
    String refused = handshake(trusted).orElse("");
    assertTrue(refused.contains("sent a certificate that is not trusted (subject CN=couchbench test server"), refused);
  }

  @Test
  void shouldCheckTheHostName() throws Exception {
    install(Map.of(TlsServer.COUCHDB.caFile(), otherHost.certificatePem().toString()), misnamed);

    String refused = handshake(misnamed).orElse("");
    assertTrue(refused.contains("sent a certificate for couchdb.example.test, not for 127.0.0.1"), refused);
  }

  @Test
  void shouldCheckNothingWhenInsecure() throws Exception {
    install(Map.of(TlsServer.COUCHDB.insecure(), "true"), misnamed);

    assertEquals(Optional.empty(), handshake(misnamed), "neither trusted nor for this host, and not checked");
  }

  private static void install(Map<String, String> properties, TlsProxy proxy) {
    installed = ServerTls.couchdb(Settings.of(properties, Map.of()), proxy.url());
    installed.installForGatling();
  }

  /** Gatling's handshake with the proxy, with the contexts it makes for a virtual user; the failure's line if any. */
  private static Optional<String> handshake(TlsProxy proxy) throws Exception {
    GatlingConfiguration configuration = GatlingConfiguration.load();
    assertFalse(configuration.ssl().useInsecureTrustManager(), "couchbench's gatling.conf");
    SslContextsFactory factory =
        new SslContextsFactory(configuration.ssl(), configuration.http().enableHostnameVerification());
    URI url = URI.create(proxy.url());
    try (SslContexts contexts = factory.newSslContexts(false, Option.empty())) {
      Channel channel = new Bootstrap().group(loop).channel(NioSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter()).connect(url.getHost(), url.getPort()).sync().channel();
      SslHandler tls = contexts.getSslContext().newHandler(channel.alloc(), url.getHost(), url.getPort());
      channel.pipeline().addFirst(tls);
      Future<Channel> done = tls.handshakeFuture().await();
      channel.close().sync();
      return done.isSuccess() ? Optional.empty()
          : Optional.of(TlsFailure.describe(done.cause(), proxy.url(), installed).orElse(String.valueOf(done.cause())));
    }
  }
}
