package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetSettingsTest {

  private static final String SECRET = "s3cr3t-Pw";

  private static TargetSettings targets(Map<String, String> properties) {
    return targets(properties, Map.of());
  }

  private static TargetSettings targets(Map<String, String> properties, Map<String, String> environment) {
    return new TargetSettings(Settings.of(properties, environment));
  }

  @Test
  void shouldBeEmptyWhenUnsetOrBlank() {
    TargetSettings targets = targets(Map.of("couchdb.url", " ", "memcache.servers", ""));
    assertEquals(Optional.empty(), targets.couchdbUrl());
    assertEquals(Optional.empty(), targets.credentials());
    assertEquals(Optional.empty(), targets.memcacheServers());
  }

  @Test
  void shouldSplitMemcacheServersAndRejectOthers() {
    assertEquals(Optional.of(List.of("db1:21201", "127.0.0.1:11211", "[::1]:11211")),
        targets(Map.of("memcache.servers", "db1:21201, 127.0.0.1:11211,[::1]:11211")).memcacheServers());
    for (String bad : List.of("db1", "db1:", ":11211", "db1:port", "db1:70000", "db1:1,", "::1:11211")) {
      SettingsException e = assertThrows(SettingsException.class,
          () -> targets(Map.of("memcache.servers", bad)).memcacheServers(), bad);
      assertTrue(e.getMessage().startsWith("-Dmemcache.servers=" + bad + " is not a list of host:port"), e.getMessage());
    }
  }

  @Test
  void shouldTakeCredentialsFromTheUrl() {
    TargetSettings targets = targets(Map.of("couchdb.url", "http://admin:" + SECRET + "@db1:5984"));
    assertEquals(Optional.of("http://admin:" + SECRET + "@db1:5984"), targets.couchdbUrl());
    assertEquals(Optional.of(new Credentials("admin", SECRET)), targets.credentials());
  }

  @Test
  void shouldDecodePercentEncodedPasswordsInTheUrl() {
    TargetSettings targets = targets(Map.of("couchdb.url", "http://admin:p%40ss%3Aword@db1:5984"));
    assertEquals(Optional.of(new Credentials("admin", "p@ss:word")), targets.credentials());
  }

  @Test
  void shouldLetExplicitPropertiesWinOverTheUrl() {
    TargetSettings targets = targets(Map.of("couchdb.url", "http://admin:urlpw@db1:5984",
        "couchdb.user", "bench", "couchdb.password", SECRET));
    assertEquals(Optional.of(new Credentials("bench", SECRET)), targets.credentials());
    TargetSettings passwordOnly =
        targets(Map.of("couchdb.url", "http://admin:urlpw@db1:5984", "couchdb.password", SECRET));
    assertEquals(Optional.of(new Credentials("admin", SECRET)), passwordOnly.credentials());
  }

  @Test
  void shouldFallBackToTheEnvironmentForThePassword() {
    Map<String, String> environment = Map.of("COUCHDB_PASSWORD", SECRET);
    assertEquals(Optional.of(new Credentials("admin", SECRET)),
        targets(Map.of("couchdb.user", "admin"), environment).credentials());
    assertEquals(Optional.of(new Credentials("admin", SECRET)),
        targets(Map.of("couchdb.url", "http://admin@db1:5984"), environment).credentials());
    assertEquals(Optional.of(new Credentials("admin", "prop")),
        targets(Map.of("couchdb.user", "admin", "couchdb.password", "prop"), environment).credentials());
    assertEquals(Optional.empty(), targets(Map.of(), environment).credentials(), "no user, no login");
  }

  @Test
  void shouldNotGiveTheUrlPasswordToAnotherUser() {
    TargetSettings targets =
        targets(Map.of("couchdb.url", "http://admin:" + SECRET + "@db1:5984", "couchdb.user", "bob"));
    SettingsException e = assertThrows(SettingsException.class, targets::credentials);
    assertTrue(e.getMessage().startsWith("CouchDB user bob (from -Dcouchdb.user) has no password"), e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
  }

  @Test
  void shouldRejectAUrlThatIsNotHttpWithoutShowingItsPassword() {
    for (String url : List.of("db1:5984", "ftp://db1", "http://admin:p@" + SECRET + "@db1:5984",
        "http://admin:" + SECRET + "@")) {
      SettingsException e = assertThrows(SettingsException.class,
          () -> targets(Map.of("couchdb.url", url)).credentials(), url);
      assertTrue(e.getMessage().startsWith("-Dcouchdb.url="), e.getMessage());
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }
  }

  @Test
  void shouldNotCountTheLoginAsARunParameter() {
    Settings settings = Settings.of(Map.of("couchdb.password", SECRET,
        "couchdb.url", "http://admin:" + SECRET + "@db1:5984"), Map.of());
    new TargetSettings(settings).credentials();
    new TargetSettings(settings).couchdbUrl();
    assertEquals(Map.of(), settings.parameters(), "the login is not a parameter");
  }

  @Test
  void shouldDescribeTheSettingsWithPasswordsMasked() {
    TargetSettings fromUrl = targets(Map.of("couchdb.url", "http://admin:" + SECRET + "@db1:5984",
        "memcache.servers", "db1:21201"));
    assertEquals("settings: couchdb.url=http://admin:*****@db1:5984, CouchDB user admin (from -Dcouchdb.url),"
        + " password ***** (from -Dcouchdb.url); memcache.servers=db1:21201.", fromUrl.describe());
    TargetSettings fromProperty = targets(Map.of("couchdb.user", "admin", "couchdb.password", SECRET));
    TargetSettings fromEnvironment = targets(Map.of("couchdb.user", "admin"), Map.of("COUCHDB_PASSWORD", SECRET));
    TargetSettings broken = targets(Map.of("couchdb.url", "http://admin:p@" + SECRET + "@db1:5984"));
    for (TargetSettings targets : List.of(fromProperty, fromEnvironment, broken)) {
      assertFalse(targets.describe().contains(SECRET), targets.describe());
    }
    assertTrue(fromEnvironment.describe().contains("password ***** (from COUCHDB_PASSWORD)"), fromEnvironment.describe());
    assertTrue(targets(Map.of()).describe().contains("couchdb.url not set"), targets(Map.of()).describe());
  }

  @Test
  void shouldLookAtTheDefaultPortsUnlessDefaultPortsIsFalse() {
    assertTrue(targets(Map.of()).defaultPorts());
    assertEquals("settings: couchdb.url not set (CouchDB at http://127.0.0.1:5984 if one answers, else a local"
        + " pouchdb-server), no CouchDB login; memcache.servers not set (127.0.0.1:21201 if it answers, else a local"
        + " memcached).", targets(Map.of()).describe());
    TargetSettings off = targets(Map.of("couchbench.defaultPorts", "false"));
    assertFalse(off.defaultPorts());
    assertEquals("settings: couchdb.url not set (a local pouchdb-server), no CouchDB login; memcache.servers not set"
        + " (a local memcached); couchbench.defaultPorts=false: the default ports are not looked at.", off.describe());
    TargetSettings wrong = targets(Map.of("couchbench.defaultPorts", "maybe"));
    SettingsException e = assertThrows(SettingsException.class, wrong::defaultPorts);
    assertEquals("-Dcouchbench.defaultPorts=maybe is not true or false", e.getMessage());
    assertEquals(targets(Map.of()).describe(), wrong.describe(), "described as the default, refused when resolved");
  }
}
