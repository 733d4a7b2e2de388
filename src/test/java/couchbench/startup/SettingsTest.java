package couchbench.startup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.targets.CouchTarget;
import couchbench.targets.Credentials;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsTest {

  private static final String SECRET = "s3cr3t-Pw";

  private static Settings settings(Map<String, String> properties) {
    return Settings.of(properties, Map.of());
  }

  @Test
  void shouldFallBackToDefaultsWhenUnsetOrBlank() {
    Settings settings = settings(Map.of("blank", " "));
    assertEquals("x", settings.get("missing", "x"));
    assertEquals("x", settings.get("blank", "x"));
    assertEquals(7, settings.intValue("blank", 7, 1));
    assertEquals(List.of(1, 2), settings.intList("missing", List.of(1, 2), 1));
    assertTrue(settings.booleanValue("missing", true));
    assertEquals(Optional.empty(), settings.couchdbUrl());
    assertEquals(Optional.empty(), settings.couchdbCredentials());
    assertEquals(Optional.empty(), settings.memcacheServers());
  }

  @Test
  void shouldParseNumbersListsAndBooleans() {
    Settings settings = settings(Map.of("docs", " 42 ", "sizes", "1, 2,4", "flag", "YES", "off", "false"));
    assertEquals("42", settings.get("docs", "0").trim());
    assertEquals(42, settings.intValue("docs", 1, 1));
    assertEquals(List.of(1, 2, 4), settings.intList("sizes", List.of(), 1));
    assertTrue(settings.booleanValue("flag", false));
    assertFalse(settings.booleanValue("off", true));
  }

  @Test
  void shouldNameParameterValueAndExpectationWhenANumberIsBad() {
    assertEquals("-Ddocs=abc is not a whole number (expected >= 1)",
        assertThrows(SettingsException.class, () -> settings(Map.of("docs", "abc")).intValue("docs", 5, 1)).getMessage());
    assertEquals("-Ddocs=0 is too small (expected >= 1)",
        assertThrows(SettingsException.class, () -> settings(Map.of("docs", "0")).intValue("docs", 5, 1)).getMessage());
    assertEquals("-Dsizes=1,x,4 is not a list of whole numbers (expected each >= 1, e.g. 1,2,4)",
        assertThrows(SettingsException.class, () -> settings(Map.of("sizes", "1,x,4")).intList("sizes", List.of(), 1))
            .getMessage());
    assertThrows(SettingsException.class, () -> settings(Map.of("sizes", "1,,4")).intList("sizes", List.of(), 1));
    assertThrows(SettingsException.class, () -> settings(Map.of("sizes", "1,0")).intList("sizes", List.of(), 1));
    assertEquals("-Dflag=maybe is not true or false",
        assertThrows(SettingsException.class, () -> settings(Map.of("flag", "maybe")).booleanValue("flag", true))
            .getMessage());
  }

  @Test
  void shouldSplitMemcacheServersAndRejectOthers() {
    assertEquals(Optional.of(List.of("db1:21201", "127.0.0.1:11211", "[::1]:11211")),
        settings(Map.of("memcache.servers", "db1:21201, 127.0.0.1:11211,[::1]:11211")).memcacheServers());
    for (String bad : List.of("db1", "db1:", ":11211", "db1:port", "db1:70000", "db1:1,", "::1:11211")) {
      SettingsException e = assertThrows(SettingsException.class,
          () -> settings(Map.of("memcache.servers", bad)).memcacheServers(), bad);
      assertTrue(e.getMessage().startsWith("-Dmemcache.servers=" + bad + " is not a list of host:port"), e.getMessage());
    }
  }

  @Test
  void shouldTakeCredentialsFromTheUrl() {
    Settings settings = settings(Map.of("couchdb.url", "http://admin:" + SECRET + "@db1:5984"));
    assertEquals(Optional.of("http://admin:" + SECRET + "@db1:5984"), settings.couchdbUrl());
    assertEquals(Optional.of(new Credentials("admin", SECRET)), settings.couchdbCredentials());
  }

  @Test
  void shouldDecodePercentEncodedPasswordsInTheUrl() {
    Settings settings = settings(Map.of("couchdb.url", "http://admin:p%40ss%3Aword@db1:5984"));
    assertEquals(Optional.of(new Credentials("admin", "p@ss:word")), settings.couchdbCredentials());
  }

  @Test
  void shouldLetExplicitPropertiesWinOverTheUrl() {
    Settings settings = settings(Map.of("couchdb.url", "http://admin:urlpw@db1:5984",
        "couchdb.user", "bench", "couchdb.password", SECRET));
    assertEquals(Optional.of(new Credentials("bench", SECRET)), settings.couchdbCredentials());
    Settings passwordOnly = settings(Map.of("couchdb.url", "http://admin:urlpw@db1:5984", "couchdb.password", SECRET));
    assertEquals(Optional.of(new Credentials("admin", SECRET)), passwordOnly.couchdbCredentials());
  }

  @Test
  void shouldFallBackToTheEnvironmentForThePassword() {
    Map<String, String> environment = Map.of("COUCHDB_PASSWORD", SECRET);
    assertEquals(Optional.of(new Credentials("admin", SECRET)),
        Settings.of(Map.of("couchdb.user", "admin"), environment).couchdbCredentials());
    assertEquals(Optional.of(new Credentials("admin", SECRET)),
        Settings.of(Map.of("couchdb.url", "http://admin@db1:5984"), environment).couchdbCredentials());
    assertEquals(Optional.of(new Credentials("admin", "prop")),
        Settings.of(Map.of("couchdb.user", "admin", "couchdb.password", "prop"), environment).couchdbCredentials());
    assertEquals(Optional.empty(), Settings.of(Map.of(), environment).couchdbCredentials(), "no user, no login");
  }

  @Test
  void shouldNotGiveTheUrlPasswordToAnotherUser() {
    Settings settings = settings(Map.of("couchdb.url", "http://admin:" + SECRET + "@db1:5984", "couchdb.user", "bob"));
    SettingsException e = assertThrows(SettingsException.class, settings::couchdbCredentials);
    assertTrue(e.getMessage().startsWith("CouchDB user bob (from -Dcouchdb.user) has no password"), e.getMessage());
    assertFalse(e.getMessage().contains(SECRET));
  }

  @Test
  void shouldRejectAUrlThatIsNotHttpWithoutShowingItsPassword() {
    for (String url : List.of("db1:5984", "ftp://db1", "http://admin:p@" + SECRET + "@db1:5984", "http://admin:" + SECRET + "@")) {
      SettingsException e = assertThrows(SettingsException.class,
          () -> settings(Map.of("couchdb.url", url)).couchdbCredentials(), url);
      assertTrue(e.getMessage().startsWith("-Dcouchdb.url="), e.getMessage());
      assertFalse(e.getMessage().contains(SECRET), e.getMessage());
    }
  }

  @Test
  void shouldDescribeTheSettingsWithPasswordsMasked() {
    Settings fromUrl = Settings.of(Map.of("couchdb.url", "http://admin:" + SECRET + "@db1:5984",
        "memcache.servers", "db1:21201"), Map.of());
    assertEquals("settings: couchdb.url=http://admin:*****@db1:5984, CouchDB user admin (from -Dcouchdb.url),"
        + " password ***** (from -Dcouchdb.url); memcache.servers=db1:21201.", fromUrl.describe());
    Settings fromProperty = settings(Map.of("couchdb.user", "admin", "couchdb.password", SECRET));
    Settings fromEnvironment = Settings.of(Map.of("couchdb.user", "admin"), Map.of("COUCHDB_PASSWORD", SECRET));
    Settings broken = settings(Map.of("couchdb.url", "http://admin:p@" + SECRET + "@db1:5984"));
    for (Settings settings : List.of(fromProperty, fromEnvironment, broken)) {
      assertFalse(settings.describe().contains(SECRET), settings.describe());
    }
    assertTrue(fromEnvironment.describe().contains("password ***** (from COUCHDB_PASSWORD)"), fromEnvironment.describe());
    assertTrue(settings(Map.of()).describe().contains("couchdb.url not set"), settings(Map.of()).describe());
  }

  @Test
  void shouldLookAtTheDefaultPortsUnlessDefaultPortsIsFalse() {
    assertTrue(settings(Map.of()).defaultPorts());
    assertEquals("settings: couchdb.url not set (CouchDB at http://127.0.0.1:5984 if one answers, else a local"
        + " pouchdb-server), no CouchDB login; memcache.servers not set (127.0.0.1:21201 if it answers, else a local"
        + " memcached).", settings(Map.of()).describe());
    Settings off = settings(Map.of("couchbench.defaultPorts", "false"));
    assertFalse(off.defaultPorts());
    assertEquals("settings: couchdb.url not set (a local pouchdb-server), no CouchDB login; memcache.servers not set"
        + " (a local memcached); couchbench.defaultPorts=false: the default ports are not looked at.", off.describe());
    Settings wrong = settings(Map.of("couchbench.defaultPorts", "maybe"));
    SettingsException e = assertThrows(SettingsException.class, wrong::defaultPorts);
    assertEquals("-Dcouchbench.defaultPorts=maybe is not true or false", e.getMessage());
    assertEquals(settings(Map.of()).describe(), wrong.describe(), "described as the default, refused when resolved");
  }

  @Test
  void shouldNeverShowThePasswordOfCredentials() {
    Credentials credentials = new Credentials("admin", SECRET);
    assertEquals("Credentials[user=admin, password=*****]", credentials.toString());
    assertFalse(new CouchTarget("http://db1:5984", Optional.of(credentials), false).toString().contains(SECRET));
    assertEquals("Basic YWRtaW46czNjcjN0LVB3", credentials.authorization());
  }

  @Test
  void shouldListEveryParameterReadWithTheValueItGotAndNoPassword() {
    Settings settings = settings(Map.of("users", "16", "batchSizes", "1,8", "couchdb.password", SECRET,
        "couchdb.url", "http://admin:" + SECRET + "@db1:5984", "unrelated", "x"));
    settings.intValue("users", 50, 1);
    settings.intValue("duration", 60, 1);
    settings.intList("batchSizes", List.of(1), 1);
    settings.booleanValue("setup", true);
    settings.get("database", "couchbench_siege");
    settings.couchdbCredentials();
    settings.couchdbUrl();
    settings.get("some.password", "given");

    assertEquals(Map.of("users", "16", "duration", "60", "batchSizes", "1,8", "setup", "true",
        "database", "couchbench_siege", "some.password", "*****"), settings.parameters(),
        "defaults included; the login is not a parameter; anything named like a password masked");
  }
}
