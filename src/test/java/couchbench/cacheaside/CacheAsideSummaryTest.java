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
      "none", 750, 250, 0, 0, 100, 2, List.of());

  @Test
  void shouldShowTheHitRatioOfTheClientBesideMemcachedsAndTheReadsThatReachedCouchDb() {
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), FIGURES).toHtml();

    assertTrue(page.contains("Hit ratio: 0.7500 (750 hits, 250 misses); 250 reads reached CouchDB (&quot;couchdb"
        + " get&quot;, one per miss)."), page);
    assertTrue(page.contains("Updates: 100 written to CouchDB, 2 refused with 409"), page);
    assertTrue(page.contains("memcached (get_hits, get_misses over the load)"), page);
    assertFalse(page.contains("differ from memcached"), page);
  }

  @Test
  void shouldWarnWhenMemcachedCountedOtherGetsThanTheClients() {
    String page = SummaryInput.page(new CacheAsideSummary(), results(1010, 255), FIGURES).toHtml();

    assertTrue(page.contains("The client&#39;s hits and misses differ from memcached&#39;s get_hits and get_misses"
        + " over the load"), page);
  }

  @Test
  void shouldGiveAHitRatioOfZeroWithoutReads() {
    assertEquals(0, new CacheAsideFigures("", "set", "none", 0, 0, 0, 0, 0, 0, List.of()).hitRatio());
    assertEquals(0.75, FIGURES.hitRatio());
  }

  @Test
  void shouldShowEachHotKeysCouchDbReadsPerRefill() {
    CacheAsideFigures stampede = new CacheAsideFigures("", "delete", "meta", 900, 100, 40, 300, 0, 0, List.of(
        new CacheAsideFigures.HotKey("hot000", 4, 4, 1), new CacheAsideFigures.HotKey("hot001", 3, 3, 1)));
    String page = SummaryInput.page(new CacheAsideSummary(), results(1000, 250), stampede).toHtml();

    assertTrue(page.contains("Stampedes (protection: meta): the 2 hot keys were refilled 7 times with 7 CouchDB reads,"
        + " 1.00 per refill, at most 1 in one."), page);
    assertTrue(page.contains("300 reads served the value cached while another user recached it, 40 waited"), page);
    assertTrue(page.contains("<td>hot001</td><td class=\"num\">3</td><td class=\"num\">3</td><td class=\"num\">1.00"
        + "</td><td class=\"num\">1</td>"), page);
    assertEquals(2.5, new CacheAsideFigures.HotKey("hot000", 2, 5, 4).readsPerRefill());
    assertEquals(0, new CacheAsideFigures.HotKey("hot000", 0, 0, 0).readsPerRefill());
  }

  @Test
  void shouldReadTheFiguresOfARunWrittenBeforeStampedesCame() throws Exception {
    CacheAsideFigures before = new ObjectMapper().readValue("{\"load\": \"\", \"invalidate\": \"delete\", \"hits\":"
        + " 750, \"misses\": 250, \"updates\": 100, \"conflicts\": 2}", CacheAsideFigures.class);

    assertEquals("none", before.protection());
    assertEquals(List.of(), before.hotKeys());
    assertFalse(SummaryInput.page(new CacheAsideSummary(), results(1000, 250), before).toHtml().contains("hot keys"));
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
