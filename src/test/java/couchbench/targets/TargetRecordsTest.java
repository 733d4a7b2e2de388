package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.SettingsException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetRecordsTest {

  @Test
  void shouldDescribeCouchTargetsWithoutPassword() {
    Optional<Credentials> admin = Optional.of(new Credentials("admin", "s3cr3t"));
    assertEquals("CouchDB at http://127.0.0.1:5984 as admin",
        new CouchTarget("http://127.0.0.1:5984/", admin, false).describe());
    assertEquals("CouchDB at http://db1:5984 without login",
        new CouchTarget("http://db1:5984", Optional.empty(), false).describe());
    assertEquals("local pouchdb-server 4.2.0 at http://127.0.0.1:41233 (started for this run)",
        new CouchTarget("http://127.0.0.1:41233", Optional.empty(), true).describe());
  }

  @Test
  void shouldNeverShowThePasswordOfCredentials() {
    Credentials credentials = new Credentials("admin", "s3cr3t-Pw");
    assertEquals("Credentials[user=admin, password=*****]", credentials.toString());
    assertFalse(new CouchTarget("http://db1:5984", Optional.of(credentials), false).toString().contains("s3cr3t-Pw"));
    assertEquals("Basic YWRtaW46czNjcjN0LVB3", credentials.authorization());
  }

  @Test
  void shouldRefuseABaseUrlWithUserInfoWithoutQuotingIt() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> new CouchTarget("http://admin:s3cr3t@db1:5984", Optional.empty(), false));
    assertFalse(e.getMessage().contains("s3cr3t"));
    IllegalArgumentException broken = assertThrows(IllegalArgumentException.class,
        () -> new CouchTarget("http://admin:s3cr3t@x@ db1", Optional.empty(), false));
    assertFalse(broken.getMessage().contains("s3cr3t"));
    assertEquals(null, broken.getCause());
  }

  @Test
  void shouldDescribeMemcacheTargetsAndGiveTheirAddresses() {
    MemcacheTarget target = new MemcacheTarget(List.of("db1:21201", "[::1]:11211"), false);
    assertEquals("memcache at db1:21201, [::1]:11211", target.describe());
    assertEquals(List.of(InetSocketAddress.createUnresolved("db1", 21201),
        InetSocketAddress.createUnresolved("::1", 11211)), target.addresses());
    assertEquals("local memcached at 127.0.0.1:41234 (started for this run)",
        new MemcacheTarget(List.of("127.0.0.1:41234"), true).describe());
    assertThrows(IllegalArgumentException.class, () -> new MemcacheTarget(List.of(), false));
  }

  @Test
  void shouldKeepExceptionMessagesOnOneLine() {
    assertEquals("a b c", new TargetException("a\nb\r\n  c").getMessage());
    assertTrue(new SettingsException("x\ny").getMessage().indexOf('\n') < 0);
  }

  @Test
  void shouldReportMissingProgramsWithTheFix() {
    TargetException node = assertThrows(TargetException.class, () -> PouchDbServer.start("/nonexistent"));
    assertEquals("couchbench needs Node.js and npm to start a local CouchDB stand-in: install them (apt-get install"
        + " nodejs npm) or point at your CouchDB with -Dcouchdb.url=http://user:password@host:5984", node.getMessage());
    TargetException memcached = assertThrows(TargetException.class, () -> MemcachedServer.start("/nonexistent",
        MemcachedServer.DEFAULT_MEMORY_MB));
    assertTrue(memcached.getMessage().contains("apt-get install memcached"), memcached.getMessage());
    assertTrue(memcached.getMessage().contains("-Dmemcache.servers"), memcached.getMessage());
  }
}
