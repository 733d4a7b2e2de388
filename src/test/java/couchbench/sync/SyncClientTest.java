package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.startup.Settings;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A pull's fetch of what it lacks, fed the replies CouchDB 3.5 gives: by _bulk_get, and as PouchDB does without. */
class SyncClientTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHANGES = "{\"results\":["
      + "{\"seq\":\"1-a\",\"id\":\"first\",\"changes\":[{\"rev\":\"1-aaa\"}]},"
      + "{\"seq\":\"2-a\",\"id\":\"edited\",\"changes\":[{\"rev\":\"1-bbb\"}]},"
      + "{\"seq\":\"3-a\",\"id\":\"second\",\"changes\":[{\"rev\":\"2-ccc\"},{\"rev\":\"2-ddd\"}]}],"
      + "\"last_seq\":\"3-a\",\"pending\":0}";

  private final SyncLedger ledger = new SyncLedger();
  private final SyncClient client = new SyncClient(0, SyncPlan.from(Settings.of(Map.of(), Map.of())), ledger);

  @Test
  void shouldFetchFirstRevisionsByAllDocsAndTheRestOneDocumentAtATimeByOpenRevs() {
    client.pullStarts();
    assertEquals("read", client.changesReply(json(CHANGES)));

    assertTrue(client.hasFirstRevisionsToPull());
    assertEquals("{\"keys\":[\"first\",\"edited\"]}", client.allDocsKeys());
    // "edited" was edited on the server after the feed named 1-bbb: its winner is not the revision asked for.
    assertEquals("read", client.allDocsReply(json("{\"total_rows\":3,\"offset\":0,\"rows\":["
        + "{\"id\":\"first\",\"key\":\"first\",\"value\":{\"rev\":\"1-aaa\"},\"doc\":{\"_id\":\"first\",\"_rev\":\"1-aaa\"}},"
        + "{\"id\":\"edited\",\"key\":\"edited\",\"value\":{\"rev\":\"2-eee\"},"
        + "\"doc\":{\"_id\":\"edited\",\"_rev\":\"2-eee\"}}]}"), 1));

    assertTrue(client.hasToPull(), "edited's 1-bbb and second's leaves are left for open_revs");
    assertEquals("/couchbench_sync_0/edited?revs=true&open_revs=%5B%221-bbb%22%5D", client.openRevsPath());
    assertEquals("read", client.openRevsReply(json("[{\"ok\":{\"_id\":\"edited\",\"_rev\":\"1-bbb\","
        + "\"_revisions\":{\"start\":1,\"ids\":[\"bbb\"]}}}]"), 2));
    assertEquals("/couchbench_sync_0/second?revs=true&open_revs=%5B%222-ccc%22%2C%222-ddd%22%5D",
        client.openRevsPath());
    assertEquals("read", client.openRevsReply(json("[{\"ok\":{\"_id\":\"second\",\"_rev\":\"2-ccc\","
        + "\"_revisions\":{\"start\":2,\"ids\":[\"ccc\",\"zzz\"]}}},{\"ok\":{\"_id\":\"second\",\"_rev\":\"2-ddd\","
        + "\"_revisions\":{\"start\":2,\"ids\":[\"ddd\",\"zzz\"]}}}]"), 3));

    assertFalse(client.hasToPull());
    assertEquals(Map.of("first", new TreeSet<>(List.of("1-aaa")), "edited", new TreeSet<>(List.of("1-bbb")),
        "second", new TreeSet<>(List.of("2-ccc", "2-ddd"))), client.store().leafRevisions());
    assertEquals(1, client.store().conflicts());
    assertEquals(4, ledger.pulledCount());
  }

  @Test
  void shouldNameARevisionOpenRevsCouldNotGiveOrLeftOut() {
    client.pullStarts();
    client.changesReply(json(CHANGES));
    client.allDocsReply(json("{\"rows\":[]}"), 1);

    assertEquals("GET first?open_revs= could not give {\"missing\":\"1-aaa\"}",
        client.openRevsReply(json("[{\"missing\":\"1-aaa\"}]"), 2));
    assertEquals("read", client.openRevsReply(json("[{\"ok\":{\"_id\":\"edited\",\"_rev\":\"1-bbb\","
        + "\"_revisions\":{\"start\":1,\"ids\":[\"bbb\"]}}}]"), 3));
    assertEquals("GET second?open_revs= gave 1 for 2 revisions", client.openRevsReply(json("[{\"ok\":"
        + "{\"_id\":\"second\",\"_rev\":\"2-ccc\",\"_revisions\":{\"start\":2,\"ids\":[\"ccc\",\"zzz\"]}}}]"), 4));
    assertFalse(client.hasToPull(), "each document asked once, answered or not: the pull's loop ends");
  }

  @Test
  void shouldTakeEveryRevisionOfABulkGetAndCountThoseLeftOut() {
    client.pullStarts();
    client.changesReply(json(CHANGES));
    assertEquals("{\"docs\":[{\"id\":\"first\",\"rev\":\"1-aaa\"},{\"id\":\"edited\",\"rev\":\"1-bbb\"},"
        + "{\"id\":\"second\",\"rev\":\"2-ccc\"},{\"id\":\"second\",\"rev\":\"2-ddd\"}]}", client.bulkGet());

    assertEquals("_bulk_get gave 1 of 4 revisions", client.bulkGetReply(json("{\"results\":[{\"id\":\"first\","
        + "\"docs\":[{\"ok\":{\"_id\":\"first\",\"_rev\":\"1-aaa\",\"_revisions\":{\"start\":1,\"ids\":[\"aaa\"]}}}]}]}"),
        1));
    assertFalse(client.hasToPull());
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new AssertionError(text, e);
    }
  }
}
