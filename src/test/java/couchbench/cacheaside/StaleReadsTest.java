package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StaleReadsTest {

  @Test
  void shouldCallStaleOnlyAnOlderVersionReadThatBeganAfterTheNewerOnesAcknowledgement() {
    StaleReads stale = new StaleReads();
    stale.acknowledged("key000001", 2, 1_000);

    assertFalse(stale.read("key000001", 1, 999, false), "began before the ack: the write was not known yet");
    assertTrue(stale.read("key000001", 1, 1_001, false), "began after the ack and got the version before");
    assertFalse(stale.read("key000001", 2, 1_001, false), "the version acknowledged is no stale read");
    assertFalse(stale.read("key000002", 1, 1_001, false), "another document's update");
    assertEquals(1, stale.count());
  }

  @Test
  void shouldCallStaleAReadOlderThanAVersionAcknowledgedBeforeItThoughANewerOneCameAfter() {
    StaleReads stale = new StaleReads();
    stale.acknowledged("key000001", 2, 1_000);
    stale.acknowledged("key000001", 3, 2_000);

    assertTrue(stale.read("key000001", 1, 1_500, false), "version 2 was acknowledged before the read began");
    assertFalse(stale.read("key000001", 2, 1_500, false), "version 3 came after the read began");
    assertTrue(stale.read("key000001", 2, 2_500, false));
    assertFalse(stale.read("key000001", 3, 2_500, false));
    assertEquals(2, stale.count());
  }

  @Test
  void shouldCountTheReadsFlaggedStaleAndTheStaleOnesAmongThem() {
    StaleReads stale = new StaleReads();
    stale.acknowledged("key000001", 2, 1_000);

    assertTrue(stale.read("key000001", 1, 1_500, true), "flagged, and older than version 2: stale on purpose");
    assertFalse(stale.read("key000001", 2, 1_500, true), "flagged, but the newest: no stale read");
    assertTrue(stale.read("key000001", 1, 1_600, false), "not flagged and older: stale by the race");
    assertEquals(2, stale.count());
    assertEquals(2, stale.flagged());
    assertEquals(1, stale.flaggedAndStale());
  }

  @Test
  void shouldCompareAcrossTheWrapOfNanoTime() {
    StaleReads stale = new StaleReads();
    stale.acknowledged("key000001", 2, Long.MAX_VALUE);

    assertTrue(stale.read("key000001", 1, Long.MIN_VALUE, false), "nanoTime wrapped between the ack and the read");
  }

  @Test
  void shouldReadTheVersionOfADocumentAsCouchDbAndTheCacheHoldIt() {
    assertEquals(7, StaleReads.version(bytes("{\"_id\":\"key000001\",\"_rev\":\"7-abc\",\"version\":7,"
        + "\"text\":\"version\"}")));
    assertEquals(12, StaleReads.version(bytes("{\"nested\":{\"version\":3},\"version\":12}")), "the top level's");
    assertThrows(IllegalStateException.class, () -> StaleReads.version(bytes("{\"text\":\"x\"}")));
    assertThrows(IllegalStateException.class, () -> StaleReads.version(bytes("not json")));
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
