package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import couchbench.TestCertificates;
import couchbench.TlsProxy;
import couchbench.memcache.client.FakeMemcache;
import couchbench.process.FreePort;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetsIT {

  private static final String SECRET = "s3cr3t-Pw";
  private static final Map<String, String> NO_PATH = Map.of("PATH", "/nonexistent");

  @AfterEach
  void stopStartedServers() {
    LocalServers.stopAll();
  }

  private static Settings settings(Map<String, String> properties) {
    return Settings.of(properties, Map.of());
  }

  private static String closedUrl() {
    return "http://127.0.0.1:" + FreePort.pick();
  }

  @Test
  void shouldNameTheUrlAndTheSettingWhenTheGivenCouchDbDoesNotAnswer() {
    String url = closedUrl();
    String withLogin = url.replace("//", "//admin:" + SECRET + "@");
    TargetException e = assertThrows(TargetException.class,
        () -> Targets.couchdb(settings(Map.of("couchdb.url", withLogin + "/"))));
    assertEquals("CouchDB at " + url + " does not answer (connection refused): start it or set -Dcouchdb.url",
        e.getMessage());
  }

  @Test
  void shouldRefuseAGivenUrlThatIsNotCouchDb() throws Exception {
    HttpServer hello = Net.hello();
    try {
      String url = "http://127.0.0.1:" + hello.getAddress().getPort();
      TargetException e = assertThrows(TargetException.class,
          () -> Targets.couchdb(settings(Map.of("couchdb.url", url))));
      assertEquals("something at " + url + " answers but is not CouchDB (hello): set -Dcouchdb.url to your CouchDB",
          e.getMessage());
    } finally {
      hello.stop(0);
    }
  }

  @Test
  void shouldRefuseADefaultPortHeldBySomethingElse() throws Exception {
    HttpServer hello = Net.hello();
    try {
      String url = "http://127.0.0.1:" + hello.getAddress().getPort();
      TargetException e = assertThrows(TargetException.class, () -> Targets.couchdb(settings(Map.of()), url));
      assertEquals("something at " + url + " answers but is not CouchDB (hello): stop it or set -Dcouchdb.url",
          e.getMessage());
      TargetException memcache = assertThrows(TargetException.class,
          () -> Targets.memcache(settings(Map.of()), "127.0.0.1:" + hello.getAddress().getPort()));
      assertTrue(memcache.getMessage().contains("answers but is not memcache"), memcache.getMessage());
      assertTrue(memcache.getMessage().endsWith("stop it or set -Dmemcache.servers"), memcache.getMessage());
    } finally {
      hello.stop(0);
    }
  }

  @Test
  void shouldUseAGivenCouchDbAndCheckItsLogin() {
    try (PouchDbServer server = PouchDbServer.start()) {
      String output =
          Printed.by(() -> Targets.couchdb(settings(Map.of("couchdb.url", server.url() + "/")))).lines().get(0);
      assertEquals("couchbench: using pouchdb-server 4.2.0 at " + server.url() + " (from -Dcouchdb.url)", output);
      assertEquals(new CouchTarget(server.url(), Optional.empty(), false),
          Targets.couchdb(settings(Map.of("couchdb.url", server.url()))));
      // pouchdb-server has no users, so it rejects any login: the same 401 a CouchDB gives for a wrong password.
      String withLogin = server.url().replace("//", "//admin:" + SECRET + "@");
      TargetException e = assertThrows(TargetException.class,
          () -> Targets.couchdb(settings(Map.of("couchdb.url", withLogin))));
      assertTrue(e.getMessage().startsWith("CouchDB at " + server.url() + " rejects the login of user admin ("),
          e.getMessage());
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }
  }

  @Test
  void shouldUseACouchDbOnTheDefaultPort() {
    try (PouchDbServer server = PouchDbServer.start()) {
      CouchTarget target = Targets.couchdb(settings(Map.of()), server.url());
      assertEquals(new CouchTarget(server.url(), Optional.empty(), false), target);
    }
  }

  @Test
  void shouldStartPouchDbWhenNothingListensOnTheDefaultPort() {
    List<CouchTarget> target = new java.util.ArrayList<>();
    List<String> lines = Printed.by(() -> target.add(Targets.couchdb(settings(Map.of()), closedUrl()))).lines();
    CouchTarget started = target.get(0);
    assertTrue(started.startedLocally());
    assertEquals(Optional.empty(), started.credentials());
    String last = lines.get(lines.size() - 1);
    assertTrue(last.matches("couchbench: started local pouchdb-server 4\\.2\\.0 at http://127\\.0\\.0\\.1:\\d+ \\(data in "
        + "target/pouchdb-server/data-\\d+\\), it stops when the run ends"), last);
    assertTrue(Net.send("GET", started.baseUrl() + "/", null).contains("express-pouchdb"));
    LocalServer local = started.local().orElseThrow();
    assertEquals("pouchdb-server", local.name());
    assertTrue(ProcessHandle.of(local.pid()).isPresent(), "local() names the running server's pid");
    assertTrue(last.contains("(data in " + local.dataDirectory().orElseThrow() + ")"), last);
    List<String> again = Printed.by(() -> target.add(Targets.couchdb(settings(Map.of()), closedUrl()))).lines();
    assertEquals(started, target.get(1), "a second resolution in the same run reuses the server");
    assertTrue(again.get(0).startsWith("couchbench: using the local pouchdb-server 4.2.0 at " + started.baseUrl()),
        again.get(0));
    LocalServers.stopAll();
    assertEquals(Optional.empty(), started.local(), "a stopped server is no longer local()");
    int port = Integer.parseInt(started.baseUrl().replaceAll(".*:", ""));
    assertFalse(Net.listens(port), "stopped with the other local servers");
  }

  @Test
  void shouldSayHowToGetNodeWhenItIsMissing() {
    TargetException e = assertThrows(TargetException.class,
        () -> Targets.couchdb(Settings.of(Map.of(), NO_PATH), closedUrl()));
    assertEquals(PouchDbServer.NEEDS_NODE, e.getMessage());
  }

  @Test
  void shouldUseGivenMemcacheServersAndNameOneThatDoesNotAnswer() {
    try (MemcachedServer server = MemcachedServer.start()) {
      MemcacheTarget target = Targets.memcache(settings(Map.of("memcache.servers", server.address())));
      assertEquals(new MemcacheTarget(List.of(server.address()), false), target);
      assertEquals(Optional.empty(), target.local(), "a given server is not couchbench's to measure");
      String closed = "127.0.0.1:" + FreePort.pick();
      TargetException e = assertThrows(TargetException.class,
          () -> Targets.memcache(settings(Map.of("memcache.servers", server.address() + "," + closed))));
      assertEquals("memcache server " + closed + " does not answer (connection refused): start it or fix"
          + " -Dmemcache.servers", e.getMessage());
    }
  }

  @Test
  void shouldNameWhatAServerThatIsNotMemcacheAnswersToVersion(@TempDir Path certificates) throws Exception {
    byte[] noise = {(byte) 0x8f, 0x02, 'a', 'b', 0x00, (byte) 0xff, 'c'}; // no line end
    try (FakeMemcache random = answering(noise);
        FakeMemcache line = answering("x".repeat(300).getBytes(StandardCharsets.US_ASCII));
        FakeMemcache silent = answering(new byte[0]);
        FakeMemcache error = answering("ERROR\r\n".getBytes(StandardCharsets.US_ASCII));
        TlsProxy tls = TlsProxy.start(silent.address().getPort(),
            TestCertificates.selfSigned(certificates, "memcache-tls", "ip:127.0.0.1"), Optional.empty())) {
      assertEquals("something at " + address(random) + " answers but is not memcache (it sent 7 bytes that are not a"
          + " memcache line: \"\\x8f\\x02ab\\x00\\xffc\"): fix -Dmemcache.servers", given(address(random)));
      assertEquals("something at " + address(line) + " answers but is not memcache (it sent more than 200 bytes"
          + " without a line end, not a memcache line: \"xxxxxxxxxxxxxxxxxxxxxxxx\"...): fix -Dmemcache.servers",
          given(address(line)));
      assertEquals("memcache server " + address(silent) + " does not answer (it accepts connections but sent no reply"
          + " to version within 3 s): start it or fix -Dmemcache.servers", given(address(silent)));
      String tlsPort = tls.url().substring("https://".length());
      assertEquals("something at " + tlsPort + " answers but is not memcache (it is a TLS port: set"
          + " -Dmemcache.tls=true (with -Dmemcache.caFile=PEM to trust its certificate), or give the server's plain"
          + " port): fix -Dmemcache.servers", given(tlsPort));
      assertEquals(new MemcacheTarget(List.of(address(error)), false),
          Targets.memcache(settings(Map.of("memcache.servers", address(error)))),
          "ERROR to version is memcache's own reply: a server or proxy without the command, used");
      String closed = "127.0.0.1:" + FreePort.pick();
      assertEquals("memcache server " + closed + " does not answer (connection refused): start it or fix"
          + " -Dmemcache.servers", given(closed));
    }
  }

  /** A server that answers every command with these bytes: not memcache. */
  private static FakeMemcache answering(byte[] bytes) throws IOException {
    return new FakeMemcache(command -> new FakeMemcache.Answer(bytes, false));
  }

  private static String address(FakeMemcache server) {
    return "127.0.0.1:" + server.address().getPort();
  }

  private static String given(String server) {
    return assertThrows(TargetException.class,
        () -> Targets.memcache(settings(Map.of("memcache.servers", server)))).getMessage();
  }

  @Test
  void shouldUseMemcacheOnTheDefaultPortElseStartMemcached() {
    try (MemcachedServer server = MemcachedServer.start()) {
      assertEquals(new MemcacheTarget(List.of(server.address()), false),
          Targets.memcache(settings(Map.of()), server.address()));
    }
    MemcacheTarget started = Targets.memcache(settings(Map.of()), "127.0.0.1:" + FreePort.pick());
    assertTrue(started.startedLocally());
    assertTrue(Net.listens(started.addresses().get(0).getPort()));
    LocalServer local = started.local().orElseThrow();
    assertEquals("memcached", local.name());
    assertEquals(Optional.empty(), local.dataDirectory());
    assertTrue(ProcessHandle.of(local.pid()).isPresent(), "local() names the running server's pid");
    assertEquals(started, Targets.memcache(settings(Map.of()), "127.0.0.1:" + FreePort.pick()), "reused");
  }

  @Test
  void shouldStartLocalServersWithoutLookingAtTheDefaultPortsWhenDefaultPortsIsFalse() throws Exception {
    Settings off = settings(Map.of(TargetSettings.DEFAULT_PORTS, "false"));
    // Something listens on the "default" port: with the probe on, each resolution would connect to it.
    try (ServerSocket listening = new ServerSocket(0, 50, InetAddress.getByName(FreePort.LOOPBACK))) {
      String address = FreePort.LOOPBACK + ":" + listening.getLocalPort();
      CouchTarget couch = Targets.couchdb(off, "http://" + address);
      MemcacheTarget memcache = Targets.memcache(off, address);

      assertTrue(couch.startedLocally(), couch.toString());
      assertTrue(memcache.startedLocally(), memcache.toString());
      assertFalse(couch.baseUrl().endsWith(":" + listening.getLocalPort()), couch.baseUrl());
      assertFalse(memcache.servers().contains(address), memcache.servers().toString());
      listening.setSoTimeout(200);
      // A connection made and closed at once still waits in the listen queue to be accepted.
      assertThrows(SocketTimeoutException.class, listening::accept, "the default port was connected to");
    }
    SettingsException e = assertThrows(SettingsException.class,
        () -> Targets.memcache(settings(Map.of(TargetSettings.DEFAULT_PORTS, "no thanks")),
            "127.0.0.1:" + FreePort.pick()));
    assertEquals("-Dcouchbench.defaultPorts=no thanks is not true or false", e.getMessage());
  }

  @Test
  void shouldSayHowToGetMemcachedWhenItIsMissing() {
    TargetException e = assertThrows(TargetException.class,
        () -> Targets.memcache(Settings.of(Map.of(), NO_PATH), "127.0.0.1:" + FreePort.pick()));
    assertEquals(MemcachedServer.NEEDS_MEMCACHED, e.getMessage());
    assertTrue(e.getMessage().contains("apt-get install memcached"));
  }
}
