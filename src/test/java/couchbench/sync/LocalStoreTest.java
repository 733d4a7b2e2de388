package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class LocalStoreTest {

  private static final String A = "a".repeat(32);
  private static final String B = "b".repeat(32);
  private static final String C = "c".repeat(32);

  @Test
  void shouldEditOnTheWinningLeafAndSendOnlyWhatWasEditedSinceAPush() {
    LocalStore store = new LocalStore();
    assertEquals("1-" + A, store.edit("doc", A));
    long pushed = store.sequence();
    assertEquals("2-" + B, store.edit("doc", B));

    assertEquals(List.of("2-" + B, "1-" + A), store.winner("doc"));
    assertEquals(Map.of("doc", List.of("2-" + B)), store.editedSince(pushed));
    assertEquals(Map.of(), store.editedSince(store.sequence()));
  }

  @Test
  void shouldReplaceTheLeafARevisionDescendsFromAndKeepOneThatDoesNotAsAConflict() {
    LocalStore store = new LocalStore();
    store.edit("doc", A);
    store.edit("doc", B);

    assertTrue(store.receive("doc", List.of("3-" + C, "2-" + B, "1-" + A)), "a descendant of the leaf");
    assertEquals(0, store.conflicts());
    assertFalse(store.receive("doc", List.of("2-" + B, "1-" + A)), "an ancestor it has");
    assertTrue(store.receive("doc", List.of("2-" + A, "1-" + A)), "a sibling branch");

    assertEquals(1, store.conflicts());
    assertEquals(Map.of("doc", new TreeSet<>(List.of("3-" + C, "2-" + A))), store.leafRevisions());
    assertTrue(store.has("doc", "1-" + A) && store.has("doc", "2-" + B));
  }

  @Test
  void shouldPickCouchDbsWinnerTheLongestHistoryThenTheGreaterRevision() {
    LocalStore store = new LocalStore();
    store.receive("doc", List.of("2-" + A, "1-" + A));
    store.receive("doc", List.of("2-" + C, "1-" + A));
    store.receive("doc", List.of("1-" + B));

    assertEquals("2-" + C, store.winner("doc").get(0), "of two at generation 2, the greater hash");
    assertEquals("3-" + B, store.edit("doc", B), "an edit continues the winner");
    assertEquals(List.of("3-" + B, "2-" + C, "1-" + A), store.history("doc", "3-" + B));
  }
}
