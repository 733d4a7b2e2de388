package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.MemcachedStats;
import couchbench.process.FreePort;
import couchbench.startup.Settings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a run does without -Dcouchdb.url or -Dmemcache.servers, on the real default ports: 127.0.0.1:5984 for CouchDB
 * and 127.0.0.1:21201 for memcache. The only tests of the suite that look there (the others run with
 * -Dcouchbench.defaultPorts=false).
 *
 * <p>Where a port is free, the test starts its own server on it and checks that couchbench uses that server, reading
 * nothing and writing nothing but its probe; then, the port free again, that couchbench starts a local server of its
 * own. Where a server this test did not start holds the port (a user's CouchDB or MemcacheDB), the test says so on one
 * line and checks the other branch instead: couchbench takes what answers there, after its read-only probe, and
 * starts nothing. This test writes nothing to such a server and does not fail because of it.
 */
class DefaultPortsIT {

  private static final int COUCHDB_PORT = 5984;
  private static final int MEMCACHE_PORT = 21201;
  private static final String COUCHDB_URL = "http://" + FreePort.LOOPBACK + ":" + COUCHDB_PORT;
  private static final String MEMCACHE_SERVER = FreePort.LOOPBACK + ":" + MEMCACHE_PORT;
  /** What a user's run gets: no setting at all. */
  private static final Settings NONE = Settings.of(Map.of(), Map.of());

  @AfterEach
  void stopStartedServers() {
    LocalServers.stopAll();
  }

  @Test
  void shouldUseTheCouchDbOnPort5984ElseStartPouchDb() {
    onDefaultPort(COUCHDB_PORT, "pouchdb-server", () -> PouchDbServer.startOn(COUCHDB_PORT), ours -> {
      String databases = Net.send("GET", COUCHDB_URL + "/_all_dbs", null); // pouchdb-server's own two
      Printed<CouchTarget> found = Printed.by(() -> Targets.couchdb(NONE));
      assertEquals(new CouchTarget(COUCHDB_URL, Optional.empty(), false), found.value());
      assertEquals(List.of("couchbench: using pouchdb-server " + PouchDbInstall.version() + " at " + COUCHDB_URL
          + " (found on the default port; -Dcouchdb.url picks another)"), found.lines());
      assertEquals(databases, Net.send("GET", COUCHDB_URL + "/_all_dbs", null), "the probe created nothing");
    }, () -> {
      Printed<CouchTarget> started = Printed.by(() -> Targets.couchdb(NONE));
      assertTrue(started.value().startedLocally(), started.value().toString());
      assertFalse(started.value().baseUrl().equals(COUCHDB_URL), started.value().baseUrl());
      assertTrue(started.last().startsWith("couchbench: started local pouchdb-server "), started.last());
    }, () -> {
      try {
        assertEquals(new CouchTarget(COUCHDB_URL, Optional.empty(), false), Targets.couchdb(NONE),
            "what answers as CouchDB on the default port is used");
      } catch (TargetException e) {
        // Not a CouchDB couchbench can use as it is (no CouchDB, or one that wants a login): it says so.
        assertTrue(e.getMessage().contains(COUCHDB_URL) && e.getMessage().contains("-Dcouchdb."), e.getMessage());
      }
      assertEquals(Optional.empty(), LocalServers.find(PouchDbServer.class), "no pouchdb-server started instead");
    });
  }

  @Test
  void shouldUseTheMemcacheServerOnPort21201ElseStartMemcached() {
    onDefaultPort(MEMCACHE_PORT, "memcached", () -> MemcachedServer.startOn(MEMCACHE_PORT), ours -> {
      Printed<MemcacheTarget> found = Printed.by(() -> Targets.memcache(NONE));
      assertEquals(new MemcacheTarget(List.of(MEMCACHE_SERVER), false), found.value());
      assertEquals(List.of("couchbench: using memcache at " + MEMCACHE_SERVER + " (VERSION " + ours.version()
          + ", found on the default port; -Dmemcache.servers picks others)"), found.lines());
      long sets = MemcachedStats.count(MEMCACHE_PORT, "cmd_set");
      long gets = MemcachedStats.count(MEMCACHE_PORT, "cmd_get");
      assertEquals(List.of(0L, 0L), List.of(sets, gets), "the probe set and got nothing (cmd_set, cmd_get)");
    }, () -> {
      Printed<MemcacheTarget> started = Printed.by(() -> Targets.memcache(NONE));
      assertTrue(started.value().startedLocally(), started.value().toString());
      assertFalse(started.value().servers().contains(MEMCACHE_SERVER), started.value().servers().toString());
      assertTrue(started.last().startsWith("couchbench: started local memcached "), started.last());
    }, () -> {
      try {
        assertEquals(new MemcacheTarget(List.of(MEMCACHE_SERVER), false), Targets.memcache(NONE),
            "what answers as memcache on the default port is used");
      } catch (TargetException e) {
        // Not a memcache server: it says so.
        assertTrue(e.getMessage().contains(MEMCACHE_SERVER) && e.getMessage().contains("-Dmemcache.servers"),
            e.getMessage());
      }
      assertEquals(Optional.empty(), LocalServers.find(MemcachedServer.class), "no memcached started instead");
    });
  }

  /**
   * Starts our server on the default port and runs whenOurs with it, then, once it is stopped, whenFree; where the
   * port is held by something else, before or after, prints one line saying so and runs whenTaken instead.
   */
  private static <S extends AutoCloseable> void onDefaultPort(int port, String name, Supplier<Optional<S>> start,
      Consumer<S> whenOurs, Runnable whenFree, Runnable whenTaken) {
    Optional<S> ours = start.get();
    if (ours.isEmpty()) {
      taken(port, name, whenTaken);
      return;
    }
    try (S server = ours.get()) {
      whenOurs.accept(server);
    } catch (Exception e) {
      throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }
    if (FreePort.isTaken(port)) {
      taken(port, name, whenTaken); // something else took the port the moment ours let go of it
    } else {
      whenFree.run();
    }
  }

  private static void taken(int port, String name, Runnable whenTaken) {
    System.out.println("DefaultPortsIT: " + FreePort.LOOPBACK + ":" + port + " is held by a server this test did not"
        + " start: testing, read-only, that couchbench uses what answers there instead of starting " + name);
    whenTaken.run();
  }
}
