package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
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

/** A watcher's account of its target, against the writes into its source as the ledger has them. */
class ReplicaWatcherTest {

  @Test
  void shouldBeDoneOnceItSawEveryDocumentAndAcknowledgedWriteOrElseSayHowManyItLacked() {
    ReplicatePlan plan = plan(2, 4);
    WriteLedger ledger = new WriteLedger(1, 4);
    ReplicaWatcher watcher = watcher(plan, ledger);
    watcher.notified(change(Replicas.documentId(false, 0)), 1_000);
    ledger.acknowledged(0, 0, 2_000);
    ledger.acknowledged(0, 1, 2_000);
    ledger.failed(0, 2);
    ledger.acknowledged(0, 3, 2_000);
    watcher.notified(change(Replicas.documentId(true, 0)), 3_000);
    ledger.writerDone();
    long end = ledger.finishedAt();

    assertFalse(watcher.done(end), "doc 1 and writes 1 and 3 are still to come");
    watcher.notified(change(Replicas.documentId(false, 1)), 5_000);
    watcher.notified(change(Replicas.documentId(true, 2)), 5_000);
    assertFalse(watcher.done(end + 1), "write 2 failed: it is owed nothing; writes 1 and 3 are still to come");
    watcher.notified(change(Replicas.documentId(true, 1)), 7_000);
    assertFalse(watcher.done(end + 2), "write 3 is still to come");
    assertTrue(watcher.done(end + Duration.ofSeconds(2).toNanos()), "-Dquiet has passed");
    assertEquals(Optional.of("target couchbench_replicate_target_0 lacked 1 documents its source held, -Dquiet"
        + " after the last write"), watcher.verdict());
  }

  @Test
  void shouldTimeEachWriteFromItsAcknowledgementAndFromItsSendAndCountThoseSeenBeforeTheAcknowledgementApart() {
    ReplicatePlan plan = plan(0, 3);
    WriteLedger ledger = new WriteLedger(1, 3);
    ReplicationTally tally = new ReplicationTally(1);
    tally.loadStarts(0);
    ReplicaWatcher watcher = watcher(plan, ledger, tally);
    ledger.sent(0, 0, 1_000_000);
    ledger.acknowledged(0, 0, 5_000_000);
    ledger.sent(0, 1, 2_000_000);

    assertEquals(5_000_000, watcher.notified(change(Replicas.documentId(true, 0)), 25_000_000),
        "its report entry starts at the acknowledgement");
    assertEquals(7_000_000, watcher.notified(change(Replicas.documentId(true, 1)), 7_000_000),
        "on the target before its writer had the reply: an entry of 0 from there");
    ledger.acknowledged(0, 1, 9_000_000);

    assertEquals(2, tally.arrivals().count());
    assertEquals(1, tally.arrivals().beforeAck());
    assertEquals(0, tally.arrivals().fromAckMicros().getMinValue());
    assertEquals(20_000, tally.arrivals().fromAckMicros().getMaxValue(), 20);
    assertEquals(5_000, tally.arrivals().fromSentMicros().getMinValue(), 5, "write 1, from its send");
    assertEquals(24_000, tally.arrivals().fromSentMicros().getMaxValue(), 24);
    assertEquals(List.of(new ReplicateFigures.LagSecond(0, 2, 20_000)), tally.lagBySecond());
  }

  /** Counted once when the writers are done, not on every change after: 200,000 changes take a moment, not hours. */
  @Test
  void shouldKeepWhatItIsOwedWithoutReadingEveryWriteOnEachChange() {
    int writes = 200_000;
    ReplicatePlan plan = plan(0, writes);
    WriteLedger ledger = new WriteLedger(1, writes);
    ReplicaWatcher watcher = watcher(plan, ledger);
    for (int number = 0; number < writes; number++) {
      ledger.acknowledged(0, number, 1_000 + number);
    }
    ledger.writerDone();

    long end = ledger.finishedAt();

    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (int number = 0; number < writes; number++) {
        assertFalse(watcher.done(end + number), "write " + number + " is still to come");
        watcher.notified(change(Replicas.documentId(true, number)), end + number);
      }
    });
    assertTrue(watcher.done(end + writes), "every write seen");
    assertEquals(Optional.empty(), watcher.verdict());
  }

  private static ReplicatePlan plan(int docs, int writes) {
    return ReplicatePlan.from(Settings.of(Map.of("mode", "continuous", "docs", String.valueOf(docs), "writes",
        String.valueOf(writes), "quiet", "1"), Map.of()));
  }

  private static ReplicaWatcher watcher(ReplicatePlan plan, WriteLedger ledger) {
    return watcher(plan, ledger, new ReplicationTally(1));
  }

  private static ReplicaWatcher watcher(ReplicatePlan plan, WriteLedger ledger, ReplicationTally tally) {
    return new ReplicaWatcher(plan, ledger, tally, 0, URI.create("http://127.0.0.1:1"), new FeedRequest(plan.target(0),
        FeedKind.CONTINUOUS, Duration.ofSeconds(5), false, 0, Duration.ofSeconds(60), Duration.ofSeconds(1),
        Optional.empty(), List.of()));
  }

  private static Change change(String id) {
    return new Change("1-x", id, "1-a", false, false);
  }
}
