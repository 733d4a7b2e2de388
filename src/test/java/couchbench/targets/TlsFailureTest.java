package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.TestCertificates;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Which failure of a handshake with CouchDB becomes which line, as the JDK's client and couchbench's trust report it. */
class TlsFailureTest {

  private static final String URL = "https://127.0.0.1:6984";

  private static TestCertificates.Identity server;
  private static TestCertificates.Identity client;
  private static ServerTls withClientCertificate;

  @BeforeAll
  static void certificates() throws Exception {
    Path folder = Path.of("target", "tls-test", String.valueOf(System.nanoTime()));
    server = TestCertificates.selfSigned(folder, "server", "dns:couchdb.example.test,ip:10.0.0.7");
    client = TestCertificates.selfSigned(folder, "client", "");
    withClientCertificate = ServerTls.couchdb(Settings.of(Map.of(TlsServer.COUCHDB.clientCert(),
        client.certificatePem().toString(), TlsServer.COUCHDB.clientKey(), client.keyPem().toString()), Map.of()), URL);
  }

  @Test
  void shouldNameTheUntrustedCertificateAndTheSetting() {
    SSLHandshakeException handshake = refusedBy(ServerTls.COUCHDB_DEFAULT, "127.0.0.1");

    String line = describe(handshake, ServerTls.COUCHDB_DEFAULT);
    assertTrue(line.startsWith("CouchDB at " + URL + " sent a certificate that is not trusted (subject"
        + " CN=couchbench test server, issuer CN=couchbench test server, not among the JVM's trusted certificates"), line);
    assertTrue(line.contains("-Dcouchdb.caFile=PEM") && line.contains("-Dcouchdb.insecure=true"), line);
  }

  @Test
  void shouldNameTheCertificatesNamesAndTheOneAskedFor() {
    ServerTls trusting = ServerTls.couchdb(Settings.of(Map.of(TlsServer.COUCHDB.caFile(),
        server.certificatePem().toString()), Map.of()), URL);

    String line = describe(refusedBy(trusting, "127.0.0.1"), trusting);

    assertTrue(line.startsWith("CouchDB at " + URL + " sent a certificate for couchdb.example.test, 10.0.0.7, not for"
        + " 127.0.0.1"), line);
    assertTrue(line.contains("-Dcouchdb.url"), line);
  }

  @Test
  void shouldListWhatWasOfferedWhenTheServerRefusesTheHandshake() {
    for (String alert : new String[] {"handshake_failure", "protocol_version", "insufficient_security"}) {
      String line = describe(new SSLHandshakeException("Received fatal alert: " + alert), ServerTls.COUCHDB_DEFAULT);

      assertTrue(line.startsWith("CouchDB at " + URL + " refused the TLS handshake (TLS alert " + alert + "):"
          + " couchbench offered TLSv1.3, TLSv1.2 with the cipher suites TLS_AES_256_GCM_SHA384,"), line);
      assertTrue(line.contains("[ssl] tls_versions, ciphers and verify_ssl_certificates"), line);
      assertTrue(line.contains("if it asks for a client certificate, set -Dcouchdb.clientCert"), line);
    }
  }

  @Test
  void shouldAskForAClientCertificateOrNameTheOneRefused() {
    for (String alert : new String[] {"certificate_required", "bad_certificate", "unknown_ca"}) {
      SSLHandshakeException refused = new SSLHandshakeException("Received fatal alert: " + alert);

      assertEquals("CouchDB at " + URL + " wants a client certificate (TLS alert " + alert + "): set"
          + " -Dcouchdb.clientCert and -Dcouchdb.clientKey (PEM)", describe(refused, ServerTls.COUCHDB_DEFAULT));
      assertTrue(describe(refused, withClientCertificate).startsWith("CouchDB at " + URL + " refused the client"
          + " certificate of -Dcouchdb.clientCert=" + client.certificatePem() + " (TLS alert " + alert + ")"));
    }
  }

  @Test
  void shouldSayWhenTheServerHangsUpOrDoesNotSpeakTls() {
    String closed = describe(new SSLHandshakeException("Remote host terminated the handshake"),
        ServerTls.COUCHDB_DEFAULT);
    assertTrue(closed.startsWith("CouchDB at " + URL + " closed the connection during the TLS handshake without saying"
        + " why: couchbench offered TLSv1.3, TLSv1.2"), closed);

    IOException plain = new IOException("wrapped", new SSLException("Unsupported or unrecognized SSL message"));
    assertEquals("CouchDB at " + URL + " does not answer in TLS (a plain http port?): use http:// in -Dcouchdb.url,"
        + " or the port of its https listener", describe(plain, ServerTls.COUCHDB_DEFAULT));
  }

  @Test
  void shouldLeaveRefusedConnectionsAndTimeoutsToDoesNotAnswer() {
    assertEquals(Optional.empty(), TlsFailure.describe(new ConnectException("Connection refused"), URL,
        ServerTls.COUCHDB_DEFAULT));
    assertEquals(Optional.empty(), TlsFailure.describe(new HttpConnectTimeoutException("HTTP connect timed out"), URL,
        ServerTls.COUCHDB_DEFAULT));
  }

  @Test
  void shouldNameAnyOtherTlsFailureOnOneLine() {
    String line = describe(new SSLException("Tag mismatch!\nsecond line"), ServerTls.COUCHDB_DEFAULT);

    assertEquals("CouchDB at " + URL + " failed the TLS handshake (SSLException: Tag mismatch! second line): the JDK's"
        + " -Djavax.net.debug=ssl:handshake shows the handshake", Console.oneLine(line));
    assertFalse(Console.oneLine(line).contains("\n"));
  }

  /** The handshake failure the JDK reports when the run's trust refuses the server's certificate for host. */
  private static SSLHandshakeException refusedBy(ServerTls tls, String host) {
    SSLEngine engine = tls.sslContext().createSSLEngine(host, 6984);
    engine.setUseClientMode(true);
    SSLParameters parameters = engine.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    engine.setSSLParameters(parameters);
    try {
      tls.serverTrust().checkServerTrusted(new X509Certificate[] {server.certificate()}, "RSA", engine);
    } catch (CertificateException e) {
      SSLHandshakeException handshake = new SSLHandshakeException(e.getMessage());
      handshake.initCause(e);
      return handshake;
    }
    throw new AssertionError("the certificate was trusted");
  }

  private static String describe(Throwable failure, ServerTls tls) {
    return TlsFailure.describe(failure, URL, tls).orElseThrow();
  }
}
