package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.TestCertificates;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The TLS settings: what they make, and one line naming the setting for each that cannot be used. */
class CouchTlsTest {

  private static final String HTTPS = "https://db1:6984";

  private static Path folder;
  private static TestCertificates.Identity client;

  @BeforeAll
  static void certificates() throws Exception {
    folder = Path.of("target", "tls-test", "settings-" + System.nanoTime());
    client = TestCertificates.selfSigned(folder, "client", "");
  }

  @Test
  void shouldTrustWhatTheJvmTrustsWithoutSettings() {
    assertSame(CouchTls.JVM_DEFAULT, tls(Map.of(), "http://db1:5984"));
    assertEquals("CouchDB at https://db1:6984 without login (certificate and host name checked against the JVM's"
        + " trusted CAs)", new CouchTarget(HTTPS, Optional.empty(), false).describe());
  }

  @Test
  void shouldSayWhatIsCheckedAndWhichClientCertificateIsShown() {
    CouchTls mutual = tls(Map.of(CouchTls.CA_FILE, client.certificatePem().toString(),
        CouchTls.CLIENT_CERT, client.certificatePem().toString(), CouchTls.CLIENT_KEY, client.keyPem().toString()), HTTPS);

    assertTrue(mutual.clientKeys().isPresent());
    assertEquals("CouchDB at https://db1:6984 without login (certificate and host name checked against "
        + client.certificatePem() + ", client certificate " + client.certificatePem() + ")",
        new CouchTarget(HTTPS, Optional.empty(), false, mutual).describe());
    assertEquals("certificate NOT checked (-Dcouchdb.insecure=true)",
        tls(Map.of(CouchTls.INSECURE, "yes"), HTTPS).describe());
  }

  @Test
  void shouldRefuseUnusableSettingsWithOneLineNamingThem() throws Exception {
    Path notPem = Files.writeString(folder.resolve("notes.txt"), "not a certificate");
    Path rsaKey = Files.writeString(folder.resolve("rsa.key"),
        "-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\n");
    Path missing = folder.resolve("missing.pem");
    String cert = client.certificatePem().toString();
    Map<Map<String, String>, String> cases = Map.of(
        Map.of(CouchTls.CA_FILE, missing.toString()), "-Dcouchdb.caFile=" + missing + " cannot be read",
        Map.of(CouchTls.CA_FILE, notPem.toString()), "-Dcouchdb.caFile=" + notPem + " holds no certificate",
        Map.of(CouchTls.CLIENT_CERT, cert), "-Dcouchdb.clientCert is set without -Dcouchdb.clientKey",
        Map.of(CouchTls.CLIENT_CERT, cert, CouchTls.CLIENT_KEY, cert), "-Dcouchdb.clientKey=" + cert
            + " holds no private key",
        Map.of(CouchTls.CLIENT_CERT, cert, CouchTls.CLIENT_KEY, rsaKey.toString()), "holds a RSA private key,"
            + " couchbench reads unencrypted PKCS#8 (BEGIN PRIVATE KEY): convert it with openssl pkcs8 -topk8",
        Map.of(CouchTls.INSECURE, "true", CouchTls.CA_FILE, cert), "-Dcouchdb.insecure=true skips the check that"
            + " -Dcouchdb.caFile asks for",
        Map.of(CouchTls.INSECURE, "maybe"), "-Dcouchdb.insecure=maybe is not true or false");
    cases.forEach((properties, expected) -> {
      SettingsException e = assertThrows(SettingsException.class, () -> tls(properties, HTTPS), properties.toString());
      assertTrue(e.getMessage().contains(expected), e.getMessage());
    });
    SettingsException http = assertThrows(SettingsException.class,
        () -> tls(Map.of(CouchTls.CA_FILE, cert), "http://db1:5984"));
    assertEquals("-Dcouchdb.caFile is set, but CouchDB at http://db1:5984 is not https: set"
        + " -Dcouchdb.url=https://host:port, or leave out the TLS settings", http.getMessage());
  }

  @Test
  void shouldPrintTheTlsSettingsGivenAtTheStart() {
    String line = new TargetSettings(Settings.of(Map.of("couchdb.url", HTTPS, CouchTls.CA_FILE, "ca.pem",
        CouchTls.INSECURE, "false"), Map.of())).describe();

    assertTrue(line.contains("couchdb.url=https://db1:6984, no CouchDB login, couchdb.caFile=ca.pem,"
        + " couchdb.insecure=false;"), line);
  }

  private static CouchTls tls(Map<String, String> properties, String url) {
    return CouchTls.from(Settings.of(properties, Map.of()), url);
  }
}
