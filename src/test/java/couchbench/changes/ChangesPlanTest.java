package couchbench.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.feed.FeedKind;
import couchbench.startup.Settings;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ChangesPlanTest {

  @Test
  void shouldFollowWithAHundredContinuousListenersFromTheDatabasesUpdateSeqByDefault() {
    ChangesPlan plan = plan(Map.of());

    assertEquals(Map.of(FeedKind.CONTINUOUS, 100), plan.listeners());
    assertEquals(4, plan.writers());
    assertEquals(2000, plan.totalDocuments(), "10 s at 200 documents/s");
    assertEquals(Optional.empty(), plan.since(), "update_seq, read before the load");
    assertEquals(List.of("couchbench_changes_0"), plan.databaseNames());
    assertTrue(plan.describe().startsWith("4 writers write 2,000 documents (a PUT each) at 200/s into 1 database; 100"
        + " continuous follow _changes (heartbeat 5000 ms, since update_seq); filter none"), plan.describe());
  }

  @Test
  void shouldTakeAMixOfFeedsOrOneFeedAndACount() {
    assertEquals(Map.of(FeedKind.CONTINUOUS, 200, FeedKind.LONGPOLL, 50, FeedKind.EVENTSOURCE, 50),
        plan(Map.of("listeners", "continuous:200, longpoll:50,eventsource:50")).listeners());
    assertEquals(Map.of(FeedKind.NORMAL, 7), plan(Map.of("listeners", "7", "feed", "normal")).listeners());
  }

  @Test
  void shouldSendEachRequestToTheNextDatabaseAndFilterEveryOtherOrEveryTenthDocument() {
    ChangesPlan plan = plan(Map.of("databases", "3", "batch", "10", "docs", "300", "writers", "1", "filter",
        "_doc_ids"));

    assertEquals(List.of(0, 0, 1, 2, 0), List.of(plan.databaseOf(0), plan.databaseOf(9), plan.databaseOf(10),
        plan.databaseOf(29), plan.databaseOf(30)));
    assertEquals(ChangesPlan.Filter.DOC_IDS, plan.filter());
    assertEquals(List.of("w0-0", "w0-30", "w0-60"), plan.docIds(0).subList(0, 3));
    assertEquals(10, plan.docIds(0).size(), "every tenth of its 100 documents");
    // Each database gets its share of both kinds, whatever the batch and the databases.
    ChangesPlan two = plan(Map.of("databases", "2", "filter", "selector"));
    assertEquals(List.of(true, true, false, false, true), List.of(two.even(0), two.even(1), two.even(2), two.even(3),
        two.even(4)), "seqs 0 and 2 go to database 0, 1 and 3 to database 1: one of each kind in each");
    assertTrue(two.followed(1));
    assertFalse(two.followed(2));
    assertEquals(List.of(0, 9, 10, 19), List.of(plan.placeInDatabase(0), plan.placeInDatabase(9),
        plan.placeInDatabase(30), plan.placeInDatabase(39)), "requests of 10 to 3 databases in turn");
  }

  @Test
  void shouldCatchUpInsteadOfFollowingWithCatchup() {
    ChangesPlan plan = plan(Map.of("catchup", "100000", "pageSize", "500", "readers", "3", "includeDocs", "true"));

    assertTrue(plan.catchesUp());
    assertFalse(plan(Map.of()).catchesUp());
    assertEquals("100,000 documents written first, then 3 readers read couchbench_changes_0's _changes from 0 in"
        + " pages of 500 with include_docs", plan.describe());
  }

  @Test
  void shouldSpreadTheWritersOverTheNodesWithoutListenersForTheLagAcrossNodes() {
    ChangesPlan plan = plan(Map.of("visibility", "nodes", "writers", "4", "listeners", "50"));

    assertTrue(plan.visibility());
    assertEquals(Map.of(), plan.listeners(), "no listeners: the readers read through the nodes");
    assertEquals(List.of(2, 1, 1), List.of(plan.writersThrough(0, 3), plan.writersThrough(1, 3),
        plan.writersThrough(2, 3)));
    assertEquals(4, plan.readers(), "4 readers a node by default");
    assertTrue(plan.describe().contains("read with r=1 through every other node by 4 readers a node"),
        plan.describe());
  }

  @Test
  void shouldStopBeforeAnyLoadWithOneLineNamingTheSetting() {
    assertRefused(Map.of("feed", "websocket"), "no feed websocket: CouchDB's feeds are continuous, eventsource,"
        + " longpoll, normal");
    assertRefused(Map.of("listeners", "continuous:2,continuous:3"), "each feed once");
    assertRefused(Map.of("listeners", "continuous:2", "feed", "normal"), "-Dfeed and a mix in -Dlisteners");
    assertRefused(Map.of("docs", "10", "duration", "2"), "-Ddocs and -Dduration are both given");
    assertRefused(Map.of("filter", "design"), "-Dfilter=design: give none, selector");
    assertRefused(Map.of("since", "0"), "-Dsince=0: give now");
    assertRefused(Map.of("rate", "0"), "-Drate=0.0");
    assertRefused(Map.of("injector", "1/2"), "Changes runs on one injector");
    assertRefused(Map.of("visibility", "shards"), "-Dvisibility=shards: give nodes");
    assertRefused(Map.of("visibility", "nodes", "databases", "2"), "-Dvisibility=nodes writes one database");
  }

  private static void assertRefused(Map<String, String> properties, String expected) {
    String message = assertThrows(ChangesException.class, () -> plan(properties)).getMessage();
    assertTrue(message.contains(expected), message);
  }

  private static ChangesPlan plan(Map<String, String> properties) {
    return ChangesPlan.from(Settings.of(properties, Map.of()));
  }
}
