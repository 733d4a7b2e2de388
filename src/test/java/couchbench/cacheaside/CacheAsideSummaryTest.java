package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.results.Results;
import couchbench.results.SummaryInput;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CacheAsideSummaryTest {

  private static final CacheAsideFigures FIGURES = new CacheAsideFigures("read 0.9, update 0.1 (then delete in the"
      + " cache), zipfian over 200 keys of 100 characters, TTL 60 s; 4 threads for 3 s, as fast as they go", "delete",
      "none", 750, 250, 0, 0, 100, 2, 25, 0, 0, List.of(), List.of(), List.of(), null, null);

  @Test
  void shouldShowTheHitRatioOfTheClientBesideMemcachedsAndTheReadsThatReachedCouchDb() {
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), FIGURES).toHtml();

    assertTrue(page.contains("Hit ratio: 0.7500 (750 hits, 250 misses); 250 reads reached CouchDB (&quot;couchdb"
        + " get&quot;, one per miss)."), page);
    assertTrue(page.contains("Updates: 100 written to CouchDB, 2 refused with 409"), page);
    assertTrue(page.contains("Stale reads: 25, 0.0250 of the reads"), page);
    assertTrue(page.contains("whose set came after a writer&#39;s delete of the key"), page);
    assertTrue(page.contains("memcached (get_hits, get_misses over the load)"), page);
    assertFalse(page.contains("differ from memcached"), page);
  }

  @Test
  void shouldSayHowManyStaleReadsTheMetaProtocolServedOnPurposeAndHowManyTheRace() {
    CacheAsideFigures meta = new CacheAsideFigures("", "delete", "meta", 750, 250, 0, 0, 100, 2, 25, 30, 20, List.of(),
        List.of(), List.of(), null, null);
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), meta).toHtml();

    assertTrue(page.contains("Stale reads: 25, 0.0250 of the reads"), page);
    assertTrue(page.contains("20 of them served stale on purpose: a value memcached flagged stale (X)"), page);
    assertTrue(page.contains("30 reads in all were served a value flagged stale, 10 of them the newest version"
        + " anyway. The other 5 were stale by the race: a read between a writer&#39;s acknowledgement and its md I"
        + " landing in the cache."), page);
    assertTrue(page.contains("each stored one then marked stale (md I"), page);
    assertEquals(5, meta.staleByRace());
  }

  @Test
  void shouldWarnWhenMemcachedCountedOtherGetsThanTheClients() {
    String page = SummaryInput.page(new CacheAsideSummary(), results(1010, 255), FIGURES).toHtml();

    assertTrue(page.contains("The client&#39;s hits and misses differ from memcached&#39;s get_hits and get_misses"
        + " over the load"), page);
  }

  @Test
  void shouldSayTheCachesMemoryAgainstTheDocumentsAndWarnOfEvictions() {
    CacheAsideFigures outgrown = new CacheAsideFigures("", "delete", "none", 750, 250, 0, 0, 0, 0, 0, 0, 0, List.of(),
        List.of(), List.of(), new CacheAsideFigures.CacheMemory(1 << 20, 3 << 20, 1234), null);
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), outgrown).toHtml();

    assertTrue(page.contains("memcache&#39;s memory: 1.0 MB (limit_maxbytes); every document cached at once takes"
        + " about 3.0 MB (more: the cache holds a part of them); 1,234 items evicted over the load."), page);
    assertTrue(page.contains("memcache evicted 1,234 items over the load to make room"), page);
    String fits = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), new CacheAsideFigures("", "delete",
        "none", 750, 250, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of(), List.of(),
        new CacheAsideFigures.CacheMemory(256 << 20, 1 << 20, 0), null)).toHtml();
    assertTrue(fits.contains("(it fits); 0 items evicted over the load."), fits);
    assertFalse(fits.contains("evicted 0"), fits);
  }

  @Test
  void shouldSayTheMissesByCauseBesideMemcachedsCounters() {
    CacheAsideFigures causes = new CacheAsideFigures("", "delete", "meta", 750, 250, 0, 0, 0, 0, 0, 0, 0, List.of(),
        List.of(), List.of(), null, new CacheAsideFigures.Misses(100, 60, 40, 30, 20, 35L, 0L));
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), causes).toHtml();

    assertTrue(page.contains("Misses by cause, as the client knew its keys: 100 cold (the key&#39;s first read), 60"
        + " invalidated by an update, 40 expired (the TTL), 30 evicted (memcached made room, or the cache was emptied),"
        + " 20 recached before expiring (an mg&#39;s win with its TTL left below R). memcached counted 35 gets that"
        + " found their item expired (get_expired: the first read after an expiry) and 0 flushed (get_flushed)."),
        page);
    assertEquals(250, causes.missCauses().total(), "they add up to the misses");
  }

  @Test
  void shouldGiveAHitRatioOfZeroWithoutReads() {
    assertEquals(0, new CacheAsideFigures("", "set", "none", 0, 0, 0, 0, 0, 0, 0, 0, 0, List.of(), List.of(),
        List.of(), null, null).hitRatio());
    assertEquals(0.75, FIGURES.hitRatio());
  }

  @Test
  void shouldShowEachHotKeysCouchDbReadsPerRefill() {
    CacheAsideFigures stampede = new CacheAsideFigures("", "delete", "meta", 900, 100, 40, 300, 0, 0, 0, 0, 0, List.of(
        new CacheAsideFigures.HotKey("hot000", 4, 4, 1, 0), new CacheAsideFigures.HotKey("hot001", 3, 3, 1, 0)), List.of(),
        List.of(), null, null);
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), stampede).toHtml();

    assertTrue(page.contains("Stampedes (protection: meta): the 2 hot keys were refilled 7 times with 7 CouchDB reads,"
        + " 1.00 per refill, at most 1 in one."), page);
    assertTrue(page.contains("300 reads served the value cached while another user recached it, 40 waited"), page);
    assertTrue(page.contains("<td>hot001</td><td class=\"num\">3</td><td class=\"num\">3</td><td class=\"num\">1.00"
        + "</td><td class=\"num\">1</td>"), page);
    assertEquals(2.5, new CacheAsideFigures.HotKey("hot000", 2, 5, 4, 0).readsPerRefill());
    assertEquals(0, new CacheAsideFigures.HotKey("hot000", 0, 0, 0, 0).readsPerRefill());
  }

  @Test
  void shouldReadTheFiguresOfARunWrittenBeforeStampedesCame() throws Exception {
    CacheAsideFigures before = new ObjectMapper().readValue("{\"load\": \"\", \"invalidate\": \"delete\", \"hits\":"
        + " 750, \"misses\": 250, \"updates\": 100, \"conflicts\": 2}", CacheAsideFigures.class);

    assertEquals("none", before.protection());
    assertEquals(List.of(), before.hotKeys());
    assertFalse(SummaryInput.page(new CacheAsideSummary(), results(1000, 250), before).toHtml().contains("hot keys"));
  }

  @Test
  void shouldSayEachColdCachesWarmUpOrThatItWasNotBackAndDrawTheSecondsCharts() {
    List<CacheAsideFigures.ReadSecond> seconds = List.of(
        new CacheAsideFigures.ReadSecond(0, 80, 20, 20, 0, 0, 0, 0.2, 1, 9, 20),
        new CacheAsideFigures.ReadSecond(1, 10, 60, 60, 30, 0, 0, 0.3, 2, 12, 40));
    CacheAsideFigures warmed = figures(seconds, new CacheAsideFigures.ColdCache("1 restart-cache", 1.2, 1.9, 0.8, 4L,
        20, 45.5, 30));
    CacheAsideFigures cold = figures(seconds, new CacheAsideFigures.ColdCache("1 restart-cache", 1.2, 1.9, 0.8, null,
        20, 45.5, 30));

    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), warmed).toHtml();
    assertTrue(page.contains("Cold cache (1 restart-cache): emptied 1.2 s into the load, the server answering again at"
        + " 1.9 s; 30 reads&#39; gets failed meanwhile"), page);
    assertTrue(page.contains("The hit ratio was 0.8000 in the 10 s before (20.0 CouchDB reads a second); warm-up: 4 s,"
        + " until the hit ratio was back within 5% of it (the first 5 s whose hit ratio together was at least 0.7600),"
        + " with 45.5 CouchDB reads a second meanwhile."), page);
    assertTrue(page.contains("the hit ratio second by second") && page.contains("CouchDB&#39;s reads a second")
        && page.contains("the latency of hits and of misses second by second"), page);
    assertTrue(SummaryInput.page(new CacheAsideSummary(), results(1000, 250), cold).toHtml()
        .contains("it was not back within 5% of it by the run&#39;s end (45.5 CouchDB reads a second since)."));
  }

  @Test
  void shouldFailTheRunForAGetThatFailedOutsideACacheRestart() {
    List<CacheAsideFigures.ReadSecond> seconds = List.of(
        new CacheAsideFigures.ReadSecond(4, 10, 60, 60, 30, 0, 0, 0.3, 2, 12, 40),
        new CacheAsideFigures.ReadSecond(9, 80, 20, 20, 2, 0, 0, 0.2, 1, 9, 20));
    CacheAsideFigures.ColdCache restart = new CacheAsideFigures.ColdCache("1 restart-cache", 4.5, 5.1, 0.8, 4L, 20,
        45, 30);

    assertEquals("2 reads' memcache gets failed outside a restart of the cache (-Dbackground=restart-cache): see"
        + " \"memcache get\"'s errors in the report", new CacheAsideSummary().failure(figures(seconds, restart))
        .orElseThrow());
    assertTrue(new CacheAsideSummary().failure(figures(seconds.subList(0, 1), restart)).isEmpty(),
        "within the restart and the 2 s after memcached answered again");
  }

  private static CacheAsideFigures figures(List<CacheAsideFigures.ReadSecond> seconds,
      CacheAsideFigures.ColdCache cold) {
    return new CacheAsideFigures("", "delete", "none", 750, 250, 0, 0, 0, 0, 0, 0, 0, List.of(), seconds,
        List.of(cold), null, null);
  }

  private static Results results(long serverGets, long serverMisses) {
    Results base = SummaryInput.results("CacheAside", null, List.of(SummaryInput.entry(CacheAsideLoad.GET, 1000,
        Map.of()), SummaryInput.entry(CacheAsideLoad.COUCH_GET, 250, Map.of())));
    return new Results(base.schema(), base.run(), base.requests(), base.errors(), base.keyFiles(), List.of(
        new Results.ServerCount(CacheAsideSummary.SERVER_GETS, 0, "2026-12-01T10:00:00Z", serverGets,
            "2026-12-01T10:01:00Z", 1000, List.of(CacheAsideLoad.GET)),
        new Results.ServerCount(CacheAsideSummary.SERVER_MISSES, 0, "2026-12-01T10:00:00Z", serverMisses,
            "2026-12-01T10:01:00Z", 250, List.of(CacheAsideLoad.COUCH_GET))), null);
  }
}
