package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.distributions.Distribution;
import couchbench.requests.MemcacheDialect;
import couchbench.startup.OneLineException;
import couchbench.startup.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheAsidePlanTest {

  @Test
  void shouldReadMostlyThroughAZipfianDrawAndDeleteOnUpdateByDefault() {
    CacheAsidePlan plan = plan(Map.of());

    assertEquals(10_000, plan.keys());
    assertEquals(Distribution.ZIPFIAN, plan.distribution());
    assertEquals(300, plan.ttl());
    assertEquals(CacheAsidePlan.Invalidation.DELETE, plan.invalidate());
    assertEquals(Duration.ofSeconds(30), plan.duration());
    assertEquals(0, plan.operations());
    assertEquals("couchbench_cacheaside", plan.database());
    assertEquals("read 0.95, update 0.05 (then delete in the cache), zipfian over 10,000 keys of 100 characters,"
        + " TTL 300 s; 16 threads for 30 s, as fast as they go", plan.describe());
  }

  @Test
  void shouldTakeEachValueAndLeaveTheRestOfOneToTheShareNotGiven() {
    CacheAsidePlan plan = plan(Map.of("keys", "500", "distribution", "uniform", "ttl", "0", "invalidate", "set",
        "update", "0.2", "threads", "4", "operations", "1000", "database", "cache_test"));

    assertEquals(0.8, plan.read());
    assertEquals(0.2, plan.update());
    assertEquals(Distribution.UNIFORM, plan.distribution());
    assertEquals(CacheAsidePlan.Invalidation.SET, plan.invalidate());
    assertEquals(1000, plan.operations());
    assertEquals(Duration.ZERO, plan.duration());
    assertEquals("read 0.8, update 0.2 (then set in the cache), uniform over 500 keys of 100 characters, TTL none;"
        + " 4 threads for 1,000 operations, as fast as they go", plan.describe());
    assertEquals(0.3, plan(Map.of("read", "0.7")).update());
    assertEquals(1.0, plan(Map.of("read", "0.9", "update", "0.1")).read() + plan(Map.of("read", "0.9", "update",
        "0.1")).update());
  }

  @Test
  void shouldStopBeforeAnyLoadWithOneLineNamingThePropertyAndWhatToGive() {
    assertRefused(Map.of("invalidate", "expire"), "-Dinvalidate=expire is not an invalidation: give"
        + " -Dinvalidate=delete (an update deletes the key from the cache, the default) or set");
    assertRefused(Map.of("read", "0.5", "update", "0.3"), "-Dread=0.5 and -Dupdate=0.3 add up to 0.8, not 1: give"
        + " them so that they add up to 1");
    assertRefused(Map.of("read", "1.5"), "-Dread=1.5 is not a proportion");
    assertRefused(Map.of("update", "-0.1"), "-Dupdate=-0.1 is not a proportion");
    assertRefused(Map.of("read", "often"), "-Dread=often is not a decimal number");
    assertRefused(Map.of("distribution", "latest"), "-Ddistribution=latest is not a distribution CacheAside draws"
        + " keys by: give -Ddistribution=zipfian (the default) or uniform");
    assertRefused(Map.of("zipfianConstant", "1"), "-DzipfianConstant=1.0: not a zipfian constant; allowed: a number"
        + " between 0 and 1, both excluded");
    assertRefused(Map.of("keys", "0"), "-Dkeys=0 is too small");
    assertRefused(Map.of("ttl", "-1"), "-Dttl=-1 does not parse: give seconds");
    assertRefused(Map.of("ttl", "2592001"), "-Dttl=2592001: memcached reads more than 2592000 seconds (30 days) as a"
        + " date");
    assertRefused(Map.of("ttl", "60-300"), "-Dttl=60-300 is a range: give one TTL in seconds, e.g. -Dttl=300");
    assertRefused(Map.of("operations", "10", "duration", "5"), "-Doperations and -Dduration are both given");
    assertRefused(Map.of("injector", "1/2"), "CacheAside runs on one injector");
    assertRefused(Map.of("protect", "lease"), "-Dprotect=lease is not a stampede protection: give -Dprotect=meta"
        + " (memcached's meta protocol: one reader recaches, the others serve the value cached) or none (the default)");
    assertRefused(Map.of("hot", "1001"), "-Dhot=1001 is more hot keys than 1000");
    assertRefused(Map.of("hot", "-1"), "-Dhot=-1 is too small");
    assertRefused(Map.of("hot", "2", "hotReads", "2"), "-DhotReads=2.0 is not a proportion");
    assertRefused(Map.of("database", "Cache"), "-Ddatabase=Cache is not a valid CouchDB database name");
    assertRefused(Map.of("protocol", "binary"), "-Dprotocol=binary is not text or meta");
    assertRefused(Map.of("protect", "meta", "protocol", "text"), "-Dprotect=meta with -Dprotocol=text: the stampede"
        + " protection is the meta protocol's (mg, ms, md); leave -Dprotocol out, or -Dprotect");
  }

  @Test
  void shouldSendAShareOfTheReadsToHotKeysAndProtectThemOnlyWhenAsked() {
    CacheAsidePlan plain = plan(Map.of());
    assertEquals(0, plain.hot().count());
    assertEquals(CacheAsidePlan.Protection.NONE, plain.protect());
    assertEquals(MemcacheDialect.TEXT, plain.protocol());
    assertEquals(MemcacheDialect.META, plan(Map.of("protocol", "meta")).protocol());
    assertTrue(plain.warning().isEmpty());

    CacheAsidePlan stampede = plan(Map.of("hot", "3", "ttl", "2", "protect", "meta"));
    assertEquals(List.of("hot000", "hot001", "hot002"), stampede.hot().ids());
    assertEquals(0.5, stampede.hot().reads());
    assertEquals(CacheAsidePlan.Protection.META, stampede.protect());
    assertEquals(MemcacheDialect.META, stampede.protocol(), "the protection is the meta protocol's");
    assertTrue(stampede.describe().endsWith("; 3 hot keys taking 0.5 of the reads; stampedes held off by the meta"
        + " protocol (-Dprotect=meta)"), stampede.describe());
    assertEquals(0.9, plan(Map.of("hot", "1", "hotReads", "0.9")).hot().reads());
    assertEquals(2, CacheAsideLoad.recacheBelow(2), "a 2 s key recached in its last second, 1 s left");
    assertEquals(1, CacheAsideLoad.recacheBelow(1), "1 s left is not below 1: a 1 s key expires");
    assertEquals(2, CacheAsideLoad.recacheBelow(3));
    assertEquals(30, CacheAsideLoad.recacheBelow(58), "the second half of its life up to 30 s left");
    assertEquals(30, CacheAsideLoad.recacheBelow(300), "from 29 s left, as protocol.txt's R30: not from 150 s left,"
        + " which would read CouchDB twice per TTL");
  }

  @Test
  void shouldWarnThatHotKeysWithoutExpiryMakeNoStampede() {
    assertEquals("-Dhot=2 with -Dttl=0: the hot keys never expire, so no stampede comes; give a short TTL, e.g."
        + " -Dttl=2", plan(Map.of("hot", "2", "ttl", "0")).warning().orElseThrow());
    assertTrue(plan(Map.of("ttl", "0")).warning().isEmpty(), "no hot keys, nothing to warn of");
  }

  @Test
  void shouldSpreadTheOperationsOverTheThreadsAsEvenlyAsTheyGo() {
    assertEquals(java.util.List.of(4, 3, 3), java.util.stream.IntStream.range(0, 3)
        .mapToObj(user -> CacheAsideLoad.share(10, 3, user)).toList());
    assertEquals(10, java.util.stream.IntStream.range(0, 16).map(user -> CacheAsideLoad.share(10, 16, user)).sum());
    assertEquals("key000042", CacheAsideLoad.id(42));
  }

  private static void assertRefused(Map<String, String> properties, String part) {
    OneLineException refused = assertThrows(OneLineException.class, () -> plan(properties), "refused: " + properties);
    assertTrue(refused.getMessage().contains(part), refused.getMessage());
  }

  private static CacheAsidePlan plan(Map<String, String> properties) {
    return CacheAsidePlan.from(Settings.of(properties, Map.of()));
  }
}
