package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.TestCertificates;
import couchbench.memcache.client.MemcacheClient;
import couchbench.memcache.client.ProtocolErrors;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.startup.Settings;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load's own TLS connections (Netty's engine, not the probe's socket), against memcached 1.6 with -Z: they check
 * the certificate and the host name themselves, so that a server that changed between the probe and the load is not
 * trusted unseen, and check nothing with -Dmemcache.insecure=true.
 */
class MemcacheTlsConnectionsIT {

  @TempDir
  static Path folder;
  private static TestCertificates.Identity named;
  private static TestCertificates.Identity otherName;
  private static MemcachedServer namedServer;
  private static MemcachedServer otherNameServer;
  private static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

  @BeforeAll
  static void start() throws Exception {
    named = TestCertificates.selfSigned(folder, "named", "ip:127.0.0.1");
    otherName = TestCertificates.selfSigned(folder, "other", "dns:memcache.example.test");
    namedServer = MemcachedServer.startWithTls(named.certificatePem(), named.keyPem());
    otherNameServer = MemcachedServer.startWithTls(otherName.certificatePem(), otherName.keyPem());
  }

  @AfterAll
  static void stop() {
    namedServer.close();
    otherNameServer.close();
    GROUP.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  @Test
  void shouldAnswerOverTlsWhenTheCertificateIsTrustedAndNamesTheHost() throws Exception {
    MemcacheReply reply = stats(namedServer, Map.of("memcache.caFile", named.certificatePem().toString()));

    assertInstanceOf(MemcacheReply.StatsLines.class, reply);
  }

  @Test
  void shouldRefuseACertificateForAnotherNameOrNotTrusted() {
    ExecutionException misnamed = assertThrows(ExecutionException.class, () -> stats(otherNameServer,
        Map.of("memcache.caFile", otherName.certificatePem().toString())));
    assertTrue(misnamed.getCause().getMessage().startsWith("TLS handshake with " + otherNameServer.address()
        + " failed: sent a certificate for memcache.example.test, not for 127.0.0.1"),
        misnamed.getCause().getMessage());

    ExecutionException untrusted = assertThrows(ExecutionException.class, () -> stats(otherNameServer,
        Map.of("memcache.caFile", named.certificatePem().toString())));
    assertTrue(untrusted.getCause().getMessage().contains("sent a certificate that is not trusted"),
        untrusted.getCause().getMessage());
  }

  @Test
  void shouldCheckNothingWhenInsecure() throws Exception {
    MemcacheReply reply = stats(otherNameServer, Map.of("memcache.insecure", "true"));

    assertInstanceOf(MemcacheReply.StatsLines.class, reply);
  }

  @Test
  void shouldSayAServerClosedTheConnectionDuringTheHandshake() throws Exception {
    try (ServerSocket closer = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Thread hangUp = new Thread(() -> {
        try (Socket client = closer.accept()) {
          client.getInputStream().read(new byte[512]); // the client's hello, then nothing back
        } catch (IOException e) {
          // the test ended first
        }
      });
      hangUp.start();
      String address = "127.0.0.1:" + closer.getLocalPort();

      ExecutionException closed = assertThrows(ExecutionException.class,
          () -> stats(address, Map.of("memcache.insecure", "true")));
      assertEquals("TLS handshake with " + address + " failed: the server closed the connection during it",
          closed.getCause().getMessage());
      hangUp.join(5000);
    }
  }

  private static MemcacheReply stats(MemcachedServer server, Map<String, String> trust) throws Exception {
    return stats(server.address(), trust);
  }

  private static MemcacheReply stats(String server, Map<String, String> trust) throws Exception {
    Map<String, String> settings = new HashMap<>(trust);
    settings.put("memcache.tls", "true");
    MemcacheTarget target = new MemcacheTarget(List.of(server), false,
        ServerTls.memcache(Settings.of(settings, Map.of())));
    try (MemcacheClient client = new MemcacheClient(target.clientConfig(), GROUP, NioSocketChannel::new)) {
      try {
        return client.connectionsFor(GROUP.next()).send(new MemcacheRequest.Stats("")).get(10, TimeUnit.SECONDS);
      } catch (ExecutionException refused) {
        // A handshake that failed opened no connection, so none was dropped either, even once its channel has closed.
        Thread.sleep(500);
        ProtocolErrors.ServerTally tally = client.protocolErrors().byServer().get(server);
        assertTrue(tally == null || tally.opened() == 0 && tally.dropped().values().stream().allMatch(n -> n == 0),
            "no connection counted: " + tally);
        throw refused;
      }
    }
  }
}
