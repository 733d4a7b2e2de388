package couchbench.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.feed.Change;
import couchbench.feed.FeedKind;
import couchbench.feed.FeedRequest;
import couchbench.ledger.WriteLedger;
import couchbench.startup.Settings;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A listener's account of what it saw, against the writes as the ledger has them. */
class ListenerTest {

  private final ChangesPlan plan = ChangesPlan.from(Settings.of(Map.of("writers", "2", "docs", "8", "databases", "2",
      "quiet", "1"), Map.of()));
  private final WriteLedger ledger = new WriteLedger(2, 4);
  private final FeedTally tally = new FeedTally(FeedKind.CONTINUOUS, 1);
  private final Listener listener = new Listener(plan, ledger, tally, 0, URI.create("http://127.0.0.1:1"),
      new FeedRequest("db_0", FeedKind.CONTINUOUS, Duration.ofSeconds(1), false, 0, Duration.ofSeconds(1),
          Duration.ofSeconds(1), Optional.empty(), List.of()), "0");

  @Test
  void shouldTimeEachWriteFromItsAcknowledgementAndCountEveryOtherRowApart() {
    ledger.acknowledged(0, 0, 1_000);
    ledger.acknowledged(0, 2, 2_000);
    ledger.acknowledged(1, 0, 3_000);

    assertEquals(1_000, listener.notified(change("w0-0"), 5_000), "its report entry starts at the acknowledgement");
    assertEquals(-1, listener.notified(change("w0-0"), 6_000), "seen again, without a reconnection: no entry");
    listener.reconnecting("the server closed the connection");
    assertEquals(-1, listener.notified(change("w0-0"), 7_000));
    assertEquals(2_000, listener.notified(change("w0-2"), 8_000));
    assertEquals(-1, listener.notified(change("w0-0"), 9_000), "a new write ended the replay: a duplicate again");
    assertEquals(-1, listener.notified(change("w0-1"), 9_000), "database 1's");
    assertEquals(-1, listener.notified(change("_design/x"), 9_000));
    assertEquals(9_500, listener.notified(change("w1-2"), 9_500), "before its acknowledgement: from its arrival");
    assertEquals(3_000, listener.notified(change("w1-0"), 10_000));

    ChangesFigures.FeedFigures figures = tally.figures();
    assertEquals(4, figures.delivered());
    assertEquals(2, figures.duplicated());
    assertEquals(1, figures.redelivered());
    assertEquals(1, figures.outOfOrder(), "w1-0 after w1-2");
    assertEquals(1, figures.beforeAck());
    assertEquals(1, figures.unexpected());
    assertEquals(1, figures.foreign());
    assertEquals(1, figures.reconnects());
    assertEquals("the server closed the connection", figures.firstReconnect());
  }

  @Test
  void shouldBeDoneOnceItSawEveryAcknowledgedWriteItShouldOrElseSayWhatItMissed() {
    ledger.acknowledged(0, 0, 1_000);
    ledger.acknowledged(0, 2, 1_000);
    ledger.failed(1, 0);
    ledger.acknowledged(1, 2, 1_000);
    listener.notified(change("w0-0"), 2_000);
    assertFalse(listener.done(3_000), "the writers are not done");

    ledger.writerDone();
    ledger.writerDone();
    long end = ledger.finishedAt();
    assertFalse(listener.done(end), "w0-2 and w1-2 are still to come");
    listener.notified(change("w0-2"), end);
    assertFalse(listener.done(end + 1));
    assertTrue(listener.done(end + Duration.ofSeconds(2).toNanos()), "-Dquiet has passed");

    assertEquals(Optional.of("missed 1 of the 3 acknowledged writes it should have seen (w1-2 first), 1 s after"
        + " the last write"), listener.verdict());
    assertEquals(1, tally.figures().listenersMissing());

    listener.notified(change("w1-2"), end + 3);
    assertTrue(listener.done(end + 4), "saw them all: done at once");
  }

  private static Change change(String id) {
    return new Change("1-x", id, "1-a", false, false);
  }
}
