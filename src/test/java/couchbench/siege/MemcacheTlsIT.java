package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.TestCertificates;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MemSet and MemGet over TLS against memcached 1.6 started with -Z and a test certificate: the counts against
 * memcached's own (read on a plain listener beside the TLS one), and the handshakes that cannot succeed stopped
 * before the load in one line each.
 */
class MemcacheTlsIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @TempDir
  Path folder;

  @Test
  void shouldSetAndGetOverTlsWithTheServersCountsAgreeing() throws Exception {
    TestCertificates.Identity certificate = TestCertificates.selfSigned(folder, "memcached", "ip:127.0.0.1");
    Path keyFile = KeyFiles.fresh("memcache");
    try (MemcachedServer memcached = MemcachedServer.startWithTls(certificate.certificatePem(),
        certificate.keyPem())) {
      Map<String, String> tls = Map.of("memcache.servers", memcached.address(), "memcache.tls", "true",
          "memcache.caFile", certificate.certificatePem().toString(), "keyFile", keyFile.toString());
      GatlingRun.Result set = GatlingRun.run("MemSet", with(tls, "users", "4", "duration", "2", "warmup", "0"),
          TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      assertTrue(set.output().contains("using memcache at " + memcached.address() + " (VERSION 1.6"), set.output());
      assertTrue(set.output().contains("over TLS, certificate and host name checked against "
          + certificate.certificatePem()), set.output());
      GatlingReport.Counts sets = GatlingReport.requests(set.requireRunFolder()).get("memcache set");
      assertEquals(0, sets.ko(), sets.toString());
      assertTrue(sets.ok() > 20, "sets sent: " + sets);
      Map<String, String> afterSet = MemcachedStats.of(memcached.plainPort());
      assertEquals(sets.ok(), Long.parseLong(afterSet.get("cmd_set")), "Gatling's OK sets = memcached's cmd_set");
      assertEquals(KeyFiles.written(keyFile).size(), Long.parseLong(afterSet.get("curr_items")), "one item a key");
      String page = Files.readString(set.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("memcache at " + memcached.address() + " over TLS (certificate and host name checked"),
          "the page says the target spoke TLS");

      GatlingRun.Result get = GatlingRun.run("MemGet", with(tls, "users", "4", "duration", "2", "warmup", "0"),
          TIMEOUT);

      assertEquals(0, get.exitCode(), get.why());
      GatlingReport.Counts gets = GatlingReport.requests(get.requireRunFolder()).get("memcache get");
      Map<String, String> afterGet = MemcachedStats.of(memcached.plainPort());
      assertEquals(0, gets.ko(), gets.toString());
      assertEquals(gets.ok(), Long.parseLong(afterGet.get("get_hits")), "Gatling's OK gets = memcached's get_hits");
      assertEquals("0", afterGet.get("get_misses"));
      assertTrue(Files.readString(get.requireRunFolder().resolve("summary.html"))
          .contains("Memcache connections: " + memcached.address() + ": 4 opened, 0 dropped."), "one TLS connection"
          + " a user");
    }
  }

  @Test
  void shouldStopInOneLineWhenTheHandshakeCannotSucceed() throws Exception {
    TestCertificates.Identity otherName = TestCertificates.selfSigned(folder, "other", "dns:memcache.example.test");
    try (MemcachedServer tlsServer = MemcachedServer.startWithTls(otherName.certificatePem(), otherName.keyPem());
        MemcachedServer plainServer = MemcachedServer.start()) {
      String ca = otherName.certificatePem().toString();
      GatlingRun.Result misnamed = GatlingRun.run("MemSet", Map.of("memcache.servers", tlsServer.address(),
          "memcache.tls", "true", "memcache.caFile", ca), TIMEOUT);
      misnamed.assertStoppedBeforeLoad("couchbench: stopped: memcache server at " + tlsServer.address()
          + " sent a certificate for memcache.example.test, not for 127.0.0.1");
      assertTrue(misnamed.output().contains("use one of those names in -Dmemcache.servers"), misnamed.output());

      GatlingRun.Result untrusted = GatlingRun.run("MemSet", Map.of("memcache.servers", tlsServer.address(),
          "memcache.tls", "true"), TIMEOUT);
      untrusted.assertStoppedBeforeLoad("couchbench: stopped: memcache server at " + tlsServer.address()
          + " sent a certificate that is not trusted (subject CN=couchbench test other");
      assertTrue(untrusted.output().contains("-Dmemcache.caFile=PEM"), untrusted.output());

      GatlingRun.Result plainPort = GatlingRun.run("MemSet", Map.of("memcache.servers", plainServer.address(),
          "memcache.tls", "true", "memcache.caFile", ca), TIMEOUT);
      plainPort.assertStoppedBeforeLoad("couchbench: stopped: memcache server at " + plainServer.address()
          + " does not answer in TLS (a plain memcache port?)");

      GatlingRun.Result plainClient = GatlingRun.run("MemSet", Map.of("memcache.servers", tlsServer.address()),
          TIMEOUT);
      plainClient.assertStoppedBeforeLoad("it is a TLS port: set -Dmemcache.tls=true");
      assertEquals("0", MemcachedStats.of(tlsServer.plainPort()).get("cmd_set"), "nothing was set");
    }
  }

  private static Map<String, String> with(Map<String, String> properties, String... more) {
    Map<String, String> all = new HashMap<>(properties);
    for (int i = 0; i < more.length; i += 2) {
      all.put(more[i], more[i + 1]);
    }
    return all;
  }
}
