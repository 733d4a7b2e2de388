package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.TestCertificates;
import couchbench.TlsProxy;
import couchbench.targets.PouchDbServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * BulkInsert over https, as a user runs it, against the pouchdb-server stand-in behind a TLS proxy with certificates
 * made for the test: the certificate is checked by the setup client and Gatling's alike, and each way the check
 * can fail stops the run with one line that names the certificate and the setting to use.
 */
class HttpsIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
  private static final String URL_SECRET = "tls-url-Secret-3141";
  private static final String PROPERTY_SECRET = "tls-prop-Secret-2718";
  private static final String ENV_SECRET = "tls-env-Secret-1618";

  private static PouchDbServer couch;
  private static TestCertificates.Identity server;
  private static TestCertificates.Identity otherHost;
  private static TestCertificates.Identity client;
  private static TlsProxy trusted;
  private static TlsProxy misnamed;
  private static TlsProxy mutual;

  @BeforeAll
  static void start() throws Exception {
    couch = PouchDbServer.start();
    int port = URI.create(couch.url()).getPort();
    Path folder = Path.of("target", "it-tls", String.valueOf(System.nanoTime()));
    server = TestCertificates.selfSigned(folder, "server", "ip:127.0.0.1,dns:localhost");
    otherHost = TestCertificates.selfSigned(folder, "elsewhere", "dns:couchdb.example.test");
    client = TestCertificates.selfSigned(folder, "client", "");
    trusted = TlsProxy.start(port, server, Optional.empty());
    misnamed = TlsProxy.start(port, otherHost, Optional.empty());
    mutual = TlsProxy.start(port, server, Optional.of(client.certificate()));
  }

  @AfterAll
  static void stop() {
    for (AutoCloseable closeable : new AutoCloseable[] {trusted, misnamed, mutual, couch}) {
      try {
        closeable.close();
      } catch (Exception e) {
        // the others are still closed
      }
    }
  }

  @Test
  void shouldRunBulkInsertOverHttpsTrustingTheGivenCertificate() throws Exception {
    int before = trusted.handshakes();
    GatlingRun.Result run = bulkInsert(trusted, Map.of("couchdb.caFile", server.certificatePem().toString()));

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    Map<String, GatlingReport.Counts> requests = GatlingReport.requests(folder);
    assertEquals(new GatlingReport.Counts(1, 1, 0), requests.get("bulk B=64 T=1"), "Gatling's request, over TLS");
    assertEquals(new GatlingReport.Counts(64, 64, 0), requests.get("single T=1"), requests.toString());
    assertTrue(trusted.handshakes() - before >= 2, "the setup client and Gatling both went through the proxy");
    assertTrue(Files.readString(folder.resolve("summary.html"))
        .contains("certificate and host name checked against " + server.certificatePem()), "the summary says so");
    assertFalse(run.output().contains("WARNING"), run.output());
  }

  @Test
  void shouldNameTheCertificateAndTheSettingWhenItIsNotTrusted() throws Exception {
    GatlingRun.Result run = bulkInsert(trusted, Map.of());

    String line = stopLine(run);
    assertTrue(line.contains("CouchDB at " + trusted.url() + " sent a certificate that is not trusted"), line);
    assertTrue(line.contains("subject CN=couchbench test server"), "which certificate: " + line);
    assertTrue(line.contains("-Dcouchdb.caFile"), "which setting: " + line);
    assertFalse(line.contains("does not answer"), line);
  }

  @Test
  void shouldNameBothNamesWhenTheCertificateIsForAnotherHost() throws Exception {
    GatlingRun.Result run = bulkInsert(misnamed, Map.of("couchdb.caFile", otherHost.certificatePem().toString()));

    String line = stopLine(run);
    assertTrue(line.contains("sent a certificate for couchdb.example.test, not for 127.0.0.1"), line);
    assertTrue(line.contains("-Dcouchdb.url"), line);
  }

  @Test
  void shouldRunWithoutCheckingAndWarnWhenInsecure() throws Exception {
    // Neither trusted nor for this host: only with the check off does the run go through.
    GatlingRun.Result run = bulkInsert(misnamed, Map.of("couchdb.insecure", "true"));

    assertEquals(0, run.exitCode(), run.why());
    String warning = "WARNING: -Dcouchdb.insecure=true: the certificate of CouchDB at " + misnamed.url()
        + " is not checked";
    assertTrue(run.output().contains("couchbench: " + warning), run.output());
    String summary = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(summary.contains(warning), "the summary page warns too");
    assertTrue(summary.contains("certificate NOT checked (-Dcouchdb.insecure=true)"), "the target says so");
  }

  @Test
  void shouldShowTheClientCertificateWhenTheServerWantsOne() throws Exception {
    String ca = server.certificatePem().toString();
    GatlingRun.Result without = bulkInsert(mutual, Map.of("couchdb.caFile", ca));

    String line = stopLine(without);
    assertTrue(line.contains("CouchDB at " + mutual.url() + " wants a client certificate"), line);
    assertTrue(line.contains("-Dcouchdb.clientCert") && line.contains("-Dcouchdb.clientKey"), line);

    GatlingRun.Result with = bulkInsert(mutual, Map.of("couchdb.caFile", ca,
        "couchdb.clientCert", client.certificatePem().toString(), "couchdb.clientKey", client.keyPem().toString()));

    assertEquals(0, with.exitCode(), "Gatling's client shows the certificate too: " + with.output());
  }

  @Test
  void shouldPrintNoPasswordWhenTlsFails() throws Exception {
    List<String> printed = List.of(
        bulkInsert(trusted.url().replace("//", "//admin:" + URL_SECRET + "@"), Map.of()).output(),
        bulkInsert(misnamed, Map.of("couchdb.caFile", otherHost.certificatePem().toString(),
            "couchdb.user", "admin", "couchdb.password", PROPERTY_SECRET)).output(),
        GatlingRun.run("BulkInsert", Map.of("couchdb.url", mutual.url(), "couchdb.user", "admin",
            "couchdb.caFile", server.certificatePem().toString()), Map.of("COUCHDB_PASSWORD", ENV_SECRET),
            RUN_TIMEOUT).output(),
        // The handshake succeeds and the login goes out over TLS (pouchdb-server refuses it): the JDK's handshake
        // log shows no application data.
        bulkInsert(trusted.url().replace("//", "//admin:" + URL_SECRET + "@"), Map.of("couchdb.caFile",
            server.certificatePem().toString(), "javax.net.debug", "ssl:handshake")).output());
    for (String output : printed) {
      assertTrue(output.contains("couchbench: stopped: CouchDB at https://127.0.0.1:"), output);
      for (String secret : List.of(URL_SECRET, PROPERTY_SECRET, ENV_SECRET)) {
        assertFalse(output.contains(secret), "a password in:\n" + output);
        String basic = Base64.getEncoder().encodeToString(("admin:" + secret).getBytes(StandardCharsets.UTF_8));
        assertFalse(output.contains(basic), "a Basic Authorization value in:\n" + output);
      }
    }
    assertTrue(printed.get(3).contains("ClientHello"), "the handshake log was on");
  }

  private static GatlingRun.Result bulkInsert(TlsProxy proxy, Map<String, String> properties) throws Exception {
    return bulkInsert(proxy.url(), properties);
  }

  private static GatlingRun.Result bulkInsert(String url, Map<String, String> properties) throws Exception {
    // One bulk request and 64 single ones, in no time: the step-length rule off.
    Map<String, String> all = new HashMap<>(Map.of("couchdb.url", url, "batchSizes", "1,64", "threads", "1",
        "docs", "64", "warmup", "0", "stepRequests", "1", "stepSeconds", "0"));
    all.putAll(properties);
    return GatlingRun.run("BulkInsert", all, RUN_TIMEOUT);
  }

  /** The one line a run stopped with: exit code 1, no stack trace. */
  private static String stopLine(GatlingRun.Result run) {
    assertEquals(1, run.exitCode(), run.why());
    assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
    List<String> lines = run.output().lines().filter(l -> l.startsWith("couchbench: stopped: ")).toList();
    assertEquals(1, lines.size(), run.output());
    return lines.get(0);
  }
}
