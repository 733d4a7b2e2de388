package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.memcache.client.FakeMemcache;
import couchbench.report.Table;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import couchbench.targets.RealCouchDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * CacheAside against a real memcached, with pouchdb-server and with a real Apache CouchDB 3.5 node behind it: what a
 * user checks after a run. The client's hits and misses are memcached's get_hits and get_misses over the load; every
 * miss, and nothing else, reached the database (pouchdb-server: the misses' CouchDB reads in results.json; CouchDB: its
 * own count of document reads); the page shows the hit ratio. 600 operations, then 3 s, over 200 keys. A stampede on
 * one hot key with a 2 s TTL, 16 users reading it for 3 s: without protection many users read CouchDB per expiry;
 * with -Dprotect=meta one, as memcached's meta protocol guarantees (one win per item until it is set again). Stale
 * reads: none when no read races a write (one user), some when a forwarder delays every delete (the invalidation).
 */
class CacheAsideIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  // In the meta protocol (-Dprotocol=meta: mg, ms, md), which memcached counts in get_hits and get_misses as it does
  // get; the text protocol's runs are the others.
  @Test
  void shouldCountHitsAndMissesAsMemcachedDoesAndSendEachMissAloneToPouchDbServer() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start(); MemcachedServer memcached = MemcachedServer.start()) {
      Map<String, String> properties = load(Map.of("couchdb.url", couch.url(), "memcache.servers",
          memcached.address(), "operations", "600", "protocol", "meta"));
      properties.remove("duration");
      GatlingRun.Result run = GatlingRun.run("CacheAside", properties, TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("memcache protocol: meta (memcached 1.6's mg and ms"), run.output());
      JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
      JsonNode figures = results.path("figures");
      long hits = figures.path("hits").asLong();
      long misses = figures.path("misses").asLong();
      assertTrue(hits > 0 && misses > 0, "a zipfian draw over 200 keys both hits and misses: " + figures);
      assertEquals(hits + misses, change(results, CacheAsideSummary.SERVER_GETS), "memcached's get_hits + get_misses");
      assertEquals(misses, change(results, CacheAsideSummary.SERVER_MISSES), "memcached's get_misses");
      assertEquals(misses, ok(results, CacheAsideLoad.COUCH_GET), "one CouchDB read per miss, none else");
      assertEquals(misses, ok(results, CacheAsideLoad.MISS), "the miss group");
      assertEquals(hits, ok(results, CacheAsideLoad.HIT), "the hit group");
      assertTrue(serverCount(results, "couchdb database_reads").path("notCounted").asText()
          .contains("pouchdb-server has none"), results.path("serverCounts").toString());
      assertTrue(figures.path("updates").asLong() > 0, figures.toString());
      assertEquals(600, hits + misses + figures.path("updates").asLong(), "-Doperations=600, spread over 4 threads");
      assertEquals(figures.path("updates").asLong() - figures.path("conflicts").asLong(),
          ok(results, CacheAsideLoad.DELETE), "each stored update deleted from the cache (md)");
      assertTrue(figures.path("load").asText().endsWith("; memcached's meta protocol (mg, ms, md; -Dprotocol=meta)"),
          figures.path("load").asText());
      assertPageShowsTheHitRatio(run.requireRunFolder(), hits, misses);
      assertSecondsCsvHoldsEachSecondsHitRatio(run);
    }
  }

  @Test
  void shouldHaveCouchDbCountOneDocumentReadPerMiss() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(load(Map.of("memcache.servers",
          memcached.address(), "invalidate", "set"))), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
      long misses = results.path("figures").path("misses").asLong();
      assertTrue(misses > 0, results.path("figures").toString());
      assertEquals(misses, change(results, CacheAsideSummary.SERVER_MISSES), "memcached's get_misses");
      assertEquals(misses, change(results, "couchdb database_reads"), "CouchDB's own count of document reads");
      assertEquals(change(results, "couchdb database_reads"), columnSum(run, CacheAsideLoad.COUCH_READS_COLUMN),
          "seconds.csv's CouchDB reads a second add up to CouchDB's own count of document reads over the load");
      assertEquals(results.path("figures").path("updates").asLong() - results.path("figures").path("conflicts")
          .asLong(), ok(results, CacheAsideLoad.INVALIDATE_SET), "each stored update set anew in the cache");
      JsonNode memory = results.path("figures").path("cacheMemory");
      assertEquals(256L << 20, memory.path("limitBytes").asLong(), "the test's memcached's -m 256: " + memory);
      assertEquals(0, memory.path("evictions").asLong(), "200 documents fit: " + memory);
    }
  }

  // 3,000 documents of 4,000 characters, some 12 MB cached, in a memcached of 2 MB: 2,000 reads drawn uniformly, most
  // of them misses whose sets (some 6 MB) overflow it, however fast the machine.
  @Test
  void shouldWarnOfAndCountTheEvictionsOfACacheSmallerThanItsDocuments() throws Exception {
    Map<String, String> properties = new HashMap<>(load(Map.of("keys", "3000", "valueSize", "4000", "distribution",
        "uniform", "update", "0", "memcache.memory", "2", "operations", "2000")));
    properties.remove("duration");
    GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(properties), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    assertTrue(run.output().matches("(?s).*couchbench: started local memcached \\S+ at 127\\.0\\.0\\.1:[0-9]+ with 2 MB"
        + " \\(-Dmemcache.memory\\).*"), run.output());
    assertTrue(run.output().matches("(?s).*couchbench: WARNING: cache-aside: the 3,000 documents take about [0-9]+ MB"
        + " cached, more than memcache's 2 MB \\(limit_maxbytes\\): it will evict.*"), run.output());
    JsonNode figures = results(run).path("figures");
    JsonNode memory = figures.path("cacheMemory");
    assertEquals(2L << 20, memory.path("limitBytes").asLong(), memory.toString());
    assertTrue(memory.path("documentsBytes").asLong() > 12_000_000, "3,000 x 4,000 characters and more: " + memory);
    long evictions = memory.path("evictions").asLong();
    assertTrue(evictions > 0 && evictions <= figures.path("misses").asLong(), "each eviction made room for a miss's"
        + " set, and only a miss sets: " + evictions + " of " + figures.path("misses").asLong() + " misses");
    assertTrue(run.output().contains(String.format(Locale.ROOT, "couchbench: WARNING: cache-aside: memcache evicted"
        + " %,d items over the load to make room", evictions)), run.output());
    assertTrue(figures.path("hits").asLong() < figures.path("misses").asLong(), "a cache of under a third of the"
        + " documents, drawn uniformly, misses more often than it hits: " + figures);
    // No update and a TTL of 300 s: a miss is a key's first read, or a read of one memcached evicted, which it evicted
    // once for each such miss at least.
    JsonNode causes = figures.path("missCauses");
    long evicted = causes.path("evicted").asLong();
    assertTrue(evicted > 0 && evicted <= evictions, "misses of evicted keys, at most memcached's " + evictions
        + " evictions: " + causes);
    assertEquals(figures.path("misses").asLong(), causes.path("cold").asLong() + evicted, causes.toString());
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains(String.format(Locale.ROOT,
        "%,d evicted (memcached made room", evicted)), "the page says the misses by cause");
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains(String.format(Locale.ROOT,
        "%,d items evicted over the load.", evictions)), "the page says the evictions");
  }

  // One user: each update's delete is acknowledged before its next read's get, and each miss's set before its next
  // update's PUT, so no read races a write; 5 keys, so each is updated and read again many times over. In the meta
  // protocol: an md that did not delete would leave the old version for the next read, a stale read.
  @Test
  void shouldCountNoStaleReadWhenNoReadRacesAWritersInvalidation() throws Exception {
    GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(load(Map.of("keys", "5", "threads", "1",
        "update", "0.3", "invalidate", "delete", "protocol", "meta"))), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode figures = results(run).path("figures");
    assertTrue(figures.path("updates").asLong() - figures.path("conflicts").asLong() > 10, figures.toString());
    assertEquals(0, figures.path("staleReads").asLong(), figures.toString());
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains("Stale reads: 0, 0.0000 of"
        + " the reads"), "the page says it");
    // A key's first read is cold, every later miss follows an update's md: nothing expires (TTL 300 s) or is evicted.
    JsonNode causes = figures.path("missCauses");
    long cold = causes.path("cold").asLong();
    assertTrue(cold > 0 && cold <= 5, "one cold miss per key at most, 5 keys: " + causes);
    assertTrue(causes.path("invalidated").asLong() > 0, causes.toString());
    assertEquals(figures.path("misses").asLong(), cold + causes.path("invalidated").asLong(), causes.toString());
    assertEquals(0, causes.path("expired").asLong() + causes.path("evicted").asLong(), causes.toString());
    assertEquals(0, causes.path("getExpired").asLong(), "memcached found no item expired: " + causes);
  }

  // memcached behind a forwarder that holds each delete 300 ms: after each stored update, its key's old version stays
  // cached 300 ms past the writer's acknowledgement, and the other 15 users, reading 2 keys from the cache in a
  // fraction of a millisecond each, get it meanwhile; every such hit began after the acknowledgement and returned the
  // version before: stale. Dozens of updates in 3 s, each with such a window: stale reads come every run.
  @Test
  void shouldCountStaleReadsWhileAProxyDelaysTheInvalidations() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start();
        Forwarder slowDeletes = Forwarder.start(memcached.port())) {
      slowDeletes.delayRequests("delete ", Duration.ofMillis(300));
      GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(load(Map.of("memcache.servers",
          slowDeletes.address(), "keys", "2", "threads", "16", "update", "0.1", "invalidate", "delete"))), TIMEOUT);

      assertEquals(0, run.exitCode(), "a stale read is measured, not failed: " + run.output());
      JsonNode figures = results(run).path("figures");
      long stale = figures.path("staleReads").asLong();
      assertTrue(figures.path("updates").asLong() > figures.path("conflicts").asLong(), figures.toString());
      assertTrue(stale > 0 && stale <= figures.path("hits").asLong() + figures.path("misses").asLong(),
          figures.toString());
      long perSecond = 0;
      for (JsonNode second : figures.path("seconds")) {
        perSecond += second.path("staleReads").asLong();
      }
      assertEquals(stale, perSecond, "the seconds' stale reads add up to the run's");
      assertEquals(stale, columnSum(run, CacheAsideLoad.STALE_BY_RACE_COLUMN), "seconds.csv: every one by the race");
      assertFalse(Files.readAllLines(run.requireRunFolder().resolve("seconds.csv")).get(0)
          .contains(CacheAsideLoad.STALE_ON_PURPOSE_COLUMN), "none on purpose without -Dprotect=meta");
      assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains(String.format(
          Locale.ROOT, "Stale reads: %,d, ", stale)), "the page says them");
    }
  }

  // -Dprotect=meta: each stored update marks its key stale (md I) instead of deleting it. 16 users over 2 keys: after
  // each mark, the first reader wins (X W) and reads CouchDB, and the others, a fraction of a millisecond a get, are
  // served the old value flagged stale (X Z) meanwhile: stale reads on purpose, every run.
  @Test
  void shouldMarkUpdatedKeysStaleWithTheMetaProtocolAndCountTheStaleReadsServedOnPurpose() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(load(Map.of("memcache.servers",
          memcached.address(), "keys", "2", "threads", "16", "update", "0.1", "protect", "meta",
          "invalidate", "delete"))), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode results = results(run);
      JsonNode figures = results.path("figures");
      long stored = figures.path("updates").asLong() - figures.path("conflicts").asLong();
      assertTrue(stored > 0, figures.toString());
      assertEquals(stored, ok(results, CacheAsideLoad.MARK_STALE), "each stored update marked stale (md I)");
      assertEquals(0, ok(results, CacheAsideLoad.DELETE), "no delete");
      long flagged = figures.path("servedFlaggedStale").asLong();
      long onPurpose = figures.path("staleOnPurpose").asLong();
      long stale = figures.path("staleReads").asLong();
      assertTrue(onPurpose > 0 && onPurpose <= flagged && flagged <= figures.path("hits").asLong(), figures.toString());
      assertTrue(stale >= onPurpose, "the reads served stale on purpose are stale reads: " + figures);
      assertEquals(onPurpose, columnSum(run, CacheAsideLoad.STALE_ON_PURPOSE_COLUMN),
          "seconds.csv's stale reads on purpose add up to the run's");
      assertEquals(stale - onPurpose, columnSum(run, CacheAsideLoad.STALE_BY_RACE_COLUMN),
          "seconds.csv's stale reads by the race add up to the run's other stale reads");
      assertEquals(ok(results, CacheAsideLoad.GET), change(results, CacheAsideSummary.SERVER_GETS),
          "memcached's get_hits + get_misses: every get, an mg's retries included");
      assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains(String.format(Locale.ROOT,
          "%,d of them served stale on purpose", onPurpose)), "the page says them");
      assertSecondsCsvHoldsEachSecondsHitRatio(run);
    }
  }

  @Test
  void shouldReachCouchDbManyTimesPerExpiryOfAHotKeyWithoutProtectionAndOnceWithTheMetaProtocol() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      Map<String, String> stampede = Map.of("memcache.servers", memcached.address(), "keys", "20", "hot", "1",
          "hotReads", "1", "read", "1", "ttl", "2", "threads", "16", "duration", "3");
      GatlingRun.Result unprotected = GatlingRun.run("CacheAside", COUCHDB.runProperties(stampede), TIMEOUT);
      // A 4 s TTL for the meta run, over 4 s: R3 makes a reader the winner with 2 s of the value's life left (a 2 s
      // TTL's R2 left 1 s), so that its CouchDB read on a busy machine still ends before the value expires; a read
      // outlasting that is the one case where memcached lets a second reader win (docs/cache-aside.md).
      GatlingRun.Result protectedByMeta = GatlingRun.run("CacheAside", COUCHDB.runProperties(with(with(with(stampede,
          "protect", "meta"), "ttl", "4"), "duration", "4")), TIMEOUT);

      JsonNode none = hotKey(unprotected);
      assertTrue(none.path("refills").asLong() >= 2, "a 2 s TTL over 3 s: the first fill and an expiry: " + none);
      assertTrue(none.path("mostInOneRefill").asLong() > 1 && none.path("couchReads").asLong()
          > none.path("refills").asLong(), "16 users miss an expired key at once, many read CouchDB: " + none);
      JsonNode meta = hotKey(protectedByMeta);
      assertTrue(meta.path("refills").asLong() >= 2, "the first fill and a recache about 2 s later: " + meta);
      assertEquals(meta.path("refills").asLong(), meta.path("couchReads").asLong(), "one CouchDB read per refill");
      assertEquals(1, meta.path("mostInOneRefill").asLong(), meta.toString());
      JsonNode metaFigures = results(protectedByMeta).path("figures");
      assertTrue(metaFigures.path("servedDuringRecache").asLong() > 0, "the losers served the value: " + metaFigures);
      // Without protection the hot key refills when it expires: the misses after the first fill are expiries, and
      // memcached found the expired item at each (get_expired, once per expiry; the misses until the refill find
      // nothing). With the meta protocol it refills before it expires: an R win of the value still cached.
      JsonNode noneCauses = results(unprotected).path("figures").path("missCauses");
      long expired = noneCauses.path("expired").asLong();
      long getExpired = noneCauses.path("getExpired").asLong();
      assertTrue(getExpired > 0 && expired >= getExpired, "expiries read, the client's count at least memcached's: "
          + noneCauses);
      assertEquals(results(unprotected).path("figures").path("misses").asLong(), noneCauses.path("cold").asLong()
          + expired, "no update, no eviction: " + noneCauses);
      JsonNode metaCauses = metaFigures.path("missCauses");
      assertTrue(metaCauses.path("recached").asLong() > 0, "recached before it expired: " + metaCauses);
      assertTrue(meta.path("recaches").asLong() > 0 && meta.path("recaches").asLong() < meta.path("refills").asLong(),
          "the hot key's refills after its first fill begun by R, before it expired: " + meta);
      assertEquals(0, none.path("recaches").asLong(), "no R without protection: " + none);
      assertEquals(metaFigures.path("misses").asLong(), metaCauses.path("cold").asLong()
          + metaCauses.path("recached").asLong() + metaCauses.path("expired").asLong(), metaCauses.toString());
      for (GatlingRun.Result run : List.of(unprotected, protectedByMeta)) {
        JsonNode results = results(run);
        assertEquals(ok(results, CacheAsideLoad.COUCH_GET), change(results, "couchdb database_reads"),
            "CouchDB's own count of document reads");
        assertEquals(ok(results, CacheAsideLoad.GET), change(results, CacheAsideSummary.SERVER_GETS),
            "memcached's get_hits + get_misses: every get, an mg's retries included");
        String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
        assertTrue(page.contains("hot keys: CouchDB reads per refill"), "the page's table of the hot key");
      }
      assertEquals(results(unprotected).path("figures").path("misses").asLong(),
          change(results(unprotected), CacheAsideSummary.SERVER_MISSES), "memcached's get_misses");
    }
  }

  @Test
  void shouldMeasureTheWarmUpAfterTheRunRestartsItsMemcachedMidRun() throws Exception {
    GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(load(Map.of("duration", "11",
        "background", "restart-cache", "backgroundAt", "5"))), TIMEOUT);

    assertEquals(0, run.exitCode(), "memcache's failures while it restarts are counted, not the run's: "
        + run.output());
    assertTrue(run.output().contains("background: restart of the local memcached at 127.0.0.1:"), run.output());
    JsonNode figures = results(run).path("figures");
    JsonNode cold = coldCache(figures);
    double before = cold.path("hitRatioBefore").asDouble();
    long emptied = (long) Math.floor(cold.path("emptiedAt").asDouble());
    double lowest = 1;
    for (JsonNode second : figures.path("seconds")) {
      long at = second.path("second").asLong();
      long reads = second.path("hits").asLong() + second.path("misses").asLong();
      if (at >= emptied && at <= emptied + 2 && reads > 0) {
        lowest = Math.min(lowest, (double) second.path("hits").asLong() / reads);
      }
    }
    assertTrue(before > 0.5 && lowest < before * 0.95, "the hit ratio drops from " + before + " to " + lowest
        + " after the restart: " + figures.path("seconds"));
    assertTrue(cold.path("warmUpSeconds").isNumber()
        && cold.path("warmUpSeconds").asLong() < 11 - cold.path("emptiedAt").asDouble(),
        "warmed up within the run's remaining seconds: " + cold);
    assertTrue(cold.path("couchReadsWarmingUp").asDouble() > 0 && cold.path("cacheDown").asLong() > 0,
        "CouchDB read while the cache warmed, and gets failed while memcached restarted: " + cold);
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("Cold cache (1 restart-cache)") && page.contains("warm-up: "
        + cold.path("warmUpSeconds").asLong() + " s"), "the page says the warm-up");
    assertTrue(page.contains(" restarted (pid "), "the page says memcached was restarted");
    assertTrue(page.contains("the hit ratio second by second"), "the page's chart");
  }

  @Test
  void shouldSendFlushAllToAMemcachedTheRunDidNotStart() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = GatlingRun.run("CacheAside", COUCHDB.runProperties(load(Map.of("memcache.servers",
          memcached.address(), "duration", "4", "background", "restart-cache", "backgroundAt", "2"))), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("background: flush_all to memcache at " + memcached.address()), run.output());
      JsonNode cold = coldCache(results(run).path("figures"));
      assertEquals(0, cold.path("cacheDown").asLong(), "flush_all drops no connection: " + cold);
      String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("flush_all sent to memcache at " + memcached.address() + " (not started by this run):"
          + " OK"), "the page says it flushed");
    }
  }

  @Test
  void shouldRefuseMetaProtectionInOneLineOnAServerWithoutTheMetaProtocol() throws Exception {
    try (FakeMemcache textOnly = new FakeMemcache(line -> FakeMemcache.Answer.reply(switch (line) {
      case "version" -> "VERSION 1.2.0\r\n"; // MemcacheDB 1.2: no mn, and ERROR to it
      case "stats" -> "STAT get_hits 0\r\nSTAT get_misses 0\r\nEND\r\n";
      default -> "ERROR\r\n";
    })); PouchDbServer couch = PouchDbServer.start()) {
      String server = "127.0.0.1:" + textOnly.address().getPort();
      GatlingRun.Result run = GatlingRun.run("CacheAside", Map.of("memcache.servers", server, "couchdb.url",
          couch.url(), "protect", "meta", "hot", "1", "duration", "1"), TIMEOUT);

      assertTrue(run.exitCode() != 0, run.output());
      assertTrue(run.output().contains("-Dprotect=meta: memcache server " + server + " answers ERROR to mn, so it has"
          + " no meta protocol and no stampede protection; leave -Dprotect out, or point -Dmemcache.servers at"
          + " memcached 1.6 or later"), run.output());
      assertFalse(run.output().contains("\tat couchbench."), "one line, no stack trace: " + run.output());
    }
  }

  private static JsonNode coldCache(JsonNode figures) {
    JsonNode coldCaches = figures.path("coldCaches");
    assertEquals(1, coldCaches.size(), "one cold cache: " + coldCaches);
    assertTrue(figures.path("seconds").size() > 0, "the reads second by second: " + figures);
    return coldCaches.get(0);
  }

  private static JsonNode hotKey(GatlingRun.Result run) throws Exception {
    assertEquals(0, run.exitCode(), run.why());
    JsonNode hotKeys = results(run).path("figures").path("hotKeys");
    assertEquals(1, hotKeys.size(), hotKeys.toString());
    return hotKeys.get(0);
  }

  private static JsonNode results(GatlingRun.Result run) throws Exception {
    return JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
  }

  private static Map<String, String> with(Map<String, String> properties, String name, String value) {
    Map<String, String> more = new HashMap<>(properties);
    more.put(name, value);
    return more;
  }

  private static Map<String, String> load(Map<String, String> more) {
    Map<String, String> properties = new HashMap<>(Map.of("keys", "200", "threads", "4", "duration", "3",
        "update", "0.1", "ttl", "60"));
    properties.putAll(more);
    return properties;
  }

  private static void assertPageShowsTheHitRatio(Path runFolder, long hits, long misses) throws Exception {
    String page = Files.readString(runFolder.resolve("summary.html"));
    String ratio = String.format(Locale.ROOT, "Hit ratio: %.4f (%,d hits, %,d misses)",
        (double) hits / (hits + misses), hits, misses);
    assertTrue(page.contains(ratio), "the page says " + ratio);
    assertTrue(page.contains("memcached (get_hits, get_misses over the load)"), "the server's row beside the client's");
  }

  // seconds.csv's hit ratio of each second is its hits over its reads in results.json's figures.seconds, to the three
  // significant digits the file gives every figure; a second without a read has none.
  private static void assertSecondsCsvHoldsEachSecondsHitRatio(GatlingRun.Result run) throws Exception {
    Map<Long, String> cells = secondsCsv(run, CacheAsideLoad.HIT_RATIO_COLUMN);
    JsonNode seconds = results(run).path("figures").path("seconds");
    long withReads = 0;
    for (JsonNode second : seconds) {
      long hits = second.path("hits").asLong();
      long reads = hits + second.path("misses").asLong();
      String cell = cells.get(second.path("second").asLong());
      if (reads == 0) {
        assertTrue(cell == null || cell.isEmpty(), "no read, no hit ratio: " + cell);
      } else {
        withReads++;
        String ratio = Table.of("hit ratio").row((double) hits / reads).rows().get(0).get(0);
        assertEquals(ratio, cell, "second " + second);
      }
    }
    assertTrue(withReads > 0, "reads in some second: " + seconds);
  }

  // A column of seconds.csv: its cell in each second, by second.
  private static Map<Long, String> secondsCsv(GatlingRun.Result run, String name) throws Exception {
    List<String> lines = Files.readAllLines(run.requireRunFolder().resolve("seconds.csv"));
    int column = Table.csvCells(lines.get(0)).indexOf(name);
    assertTrue(column > 0, name + " in " + lines.get(0));
    Map<Long, String> cells = new HashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      List<String> row = Table.csvCells(line);
      cells.put(Long.parseLong(row.get(0)), column < row.size() ? row.get(column) : "");
    }
    return cells;
  }

  // A count's column of seconds.csv added up over the run's seconds.
  private static long columnSum(GatlingRun.Result run, String name) throws Exception {
    return secondsCsv(run, name).values().stream().filter(cell -> !cell.isEmpty()).mapToLong(Long::parseLong).sum();
  }

  private static JsonNode serverCount(JsonNode results, String counter) {
    for (JsonNode count : results.path("serverCounts")) {
      if (count.path("counter").asText().equals(counter)) {
        return count;
      }
    }
    throw new AssertionError("no server count " + counter + ": " + results.path("serverCounts"));
  }

  private static long change(JsonNode results, String counter) {
    JsonNode count = serverCount(results, counter);
    assertTrue(count.path("notCounted").isNull() || count.path("notCounted").isMissingNode(), count.toString());
    return count.path("after").asLong() - count.path("before").asLong();
  }

  private static long ok(JsonNode results, String name) {
    for (JsonNode entry : results.path("requests")) {
      if (entry.path("name").asText().equals(name)) {
        return entry.path("ok").asLong();
      }
    }
    return 0;
  }
}
