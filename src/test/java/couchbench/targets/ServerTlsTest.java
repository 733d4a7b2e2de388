package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.TestCertificates;
import io.netty.handler.ssl.OpenSslContext;
import io.netty.handler.ssl.SslContext;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The TLS settings, CouchDB's and memcache's: what they make, and one line naming the setting for each that cannot
 * be used.
 */
class ServerTlsTest {

  private static final String HTTPS = "https://db1:6984";
  private static final TlsServer COUCH = TlsServer.COUCHDB;
  private static final TlsServer MEMCACHE = TlsServer.MEMCACHE;

  private static Path folder;
  private static TestCertificates.Identity client;

  @BeforeAll
  static void certificates() throws Exception {
    folder = Path.of("target", "tls-test", "settings-" + System.nanoTime());
    client = TestCertificates.selfSigned(folder, "client", "");
  }

  @Test
  void shouldTrustWhatTheJvmTrustsWithoutSettings() {
    assertSame(ServerTls.COUCHDB_DEFAULT, tls(Map.of(), "http://db1:5984"));
    assertEquals("CouchDB at https://db1:6984 without login (certificate and host name checked against the JVM's"
        + " trusted CAs)", new CouchTarget(HTTPS, Optional.empty(), false).describe());
  }

  @Test
  void shouldSayWhatIsCheckedAndWhichClientCertificateIsShown() {
    ServerTls mutual = tls(Map.of(COUCH.caFile(), client.certificatePem().toString(),
        COUCH.clientCert(), client.certificatePem().toString(), COUCH.clientKey(), client.keyPem().toString()), HTTPS);

    assertTrue(mutual.clientKeys().isPresent());
    assertEquals("CouchDB at https://db1:6984 without login (certificate and host name checked against "
        + client.certificatePem() + ", client certificate " + client.certificatePem() + ")",
        new CouchTarget(HTTPS, Optional.empty(), false, mutual).describe());
    assertEquals("certificate NOT checked (-Dcouchdb.insecure=true)",
        tls(Map.of(COUCH.insecure(), "yes"), HTTPS).describe());
  }

  @Test
  void shouldRefuseUnusableSettingsWithOneLineNamingThem() throws Exception {
    Path notPem = Files.writeString(folder.resolve("notes.txt"), "not a certificate");
    Path rsaKey = Files.writeString(folder.resolve("rsa.key"),
        "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");
    Path missing = folder.resolve("missing.pem");
    String cert = client.certificatePem().toString();
    Map<Map<String, String>, String> cases = Map.of(
        Map.of(COUCH.caFile(), missing.toString()), "-Dcouchdb.caFile=" + missing + " cannot be read",
        Map.of(COUCH.caFile(), notPem.toString()), "-Dcouchdb.caFile=" + notPem + " holds no certificate",
        Map.of(COUCH.clientCert(), cert), "-Dcouchdb.clientCert is set without -Dcouchdb.clientKey",
        Map.of(COUCH.clientCert(), cert, COUCH.clientKey(), cert), "-Dcouchdb.clientKey=" + cert
            + " holds no private key",
        Map.of(COUCH.clientCert(), cert, COUCH.clientKey(), rsaKey.toString()), "holds a RSA private key,"
            + " couchbench reads unencrypted PKCS#8 (BEGIN PRIVATE KEY): convert it with openssl pkcs8 -topk8",
        Map.of(COUCH.insecure(), "true", COUCH.caFile(), cert), "-Dcouchdb.insecure=true skips the check that"
            + " -Dcouchdb.caFile asks for",
        Map.of(COUCH.insecure(), "maybe"), "-Dcouchdb.insecure=maybe is not true or false");
    cases.forEach((properties, expected) -> {
      SettingsException e = assertThrows(SettingsException.class, () -> tls(properties, HTTPS), properties.toString());
      assertTrue(e.getMessage().contains(expected), e.getMessage());
    });
    SettingsException http = assertThrows(SettingsException.class,
        () -> tls(Map.of(COUCH.caFile(), cert), "http://db1:5984"));
    assertEquals("-Dcouchdb.caFile is set, but CouchDB at http://db1:5984 is not https: set"
        + " -Dcouchdb.url=https://host:port, or leave out the TLS settings", http.getMessage());
  }

  @Test
  void shouldPrintTheTlsSettingsGivenAtTheStart() {
    String line = new TargetSettings(Settings.of(Map.of("couchdb.url", HTTPS, COUCH.caFile(), "ca.pem",
        COUCH.insecure(), "false"), Map.of())).describe();

    assertTrue(line.contains("couchdb.url=https://db1:6984, no CouchDB login, couchdb.caFile=ca.pem,"
        + " couchdb.insecure=false;"), line);
  }

  @Test
  void shouldSpeakTlsToMemcacheOnlyWhenAskedAndRefuseItsSettingsWithoutIt() {
    assertEquals(Optional.empty(), ServerTls.memcache(Settings.of(Map.of(), Map.of())));
    ServerTls checked = ServerTls.memcache(Settings.of(Map.of("memcache.tls", "true", MEMCACHE.caFile(),
        client.certificatePem().toString()), Map.of())).orElseThrow();
    MemcacheTarget target = new MemcacheTarget(List.of("db1:21201"), false, Optional.of(checked));
    assertEquals("memcache at db1:21201 over TLS (certificate and host name checked against "
        + client.certificatePem() + "; BoringSSL)", target.describe(), "OpenSSL's engine, as Gatling brings it");
    SslContext context = target.clientConfig().tls().orElseThrow();
    assertTrue(context.isClient() && context instanceof OpenSslContext, context.getClass().getName());
    assertSame(context, checked.nettyContext(), "built once, for every connection of the run");

    SettingsException without = assertThrows(SettingsException.class, () -> ServerTls.memcache(
        Settings.of(Map.of(MEMCACHE.caFile(), "ca.pem"), Map.of())));
    assertEquals("-Dmemcache.caFile is set without -Dmemcache.tls=true: add it to speak TLS to the memcache servers,"
        + " or leave out the TLS settings", without.getMessage());
    SettingsException both = assertThrows(SettingsException.class, () -> ServerTls.memcache(Settings.of(Map.of(
        "memcache.tls", "true", MEMCACHE.insecure(), "true", MEMCACHE.caFile(), "ca.pem"), Map.of())));
    assertTrue(both.getMessage().startsWith("-Dmemcache.insecure=true skips the check that -Dmemcache.caFile asks"
        + " for"), both.getMessage());
    SettingsException local = assertThrows(SettingsException.class, () -> Targets.memcache(Settings.of(Map.of(
        "memcache.tls", "true"), Map.of())));
    assertTrue(local.getMessage().startsWith("-Dmemcache.tls=true needs -Dmemcache.servers"), local.getMessage());
    String line = new TargetSettings(Settings.of(Map.of("memcache.servers", "db1:21201", "memcache.tls", "true",
        MEMCACHE.insecure(), "true"), Map.of())).describe();
    assertTrue(line.contains("memcache.servers=db1:21201, memcache.tls=true, memcache.insecure=true"), line);
  }

  private static ServerTls tls(Map<String, String> properties, String url) {
    return ServerTls.couchdb(Settings.of(properties, Map.of()), url);
  }
}
