package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.feed.Change;
import couchbench.feed.FeedKind;
import couchbench.feed.FeedRequest;
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
    ledger.failed();
    ledger.acknowledged(0, 3, 2_000);
    watcher.notified(change(Replicas.documentId(true, 0)), 3_000);
    ledger.writerDone();

    assertFalse(watcher.done(4_000), "doc 1 and writes 1 and 3 are still to come");
    watcher.notified(change(Replicas.documentId(false, 1)), 5_000);
    watcher.notified(change(Replicas.documentId(true, 2)), 5_000);
    assertFalse(watcher.done(6_000), "write 2 failed: it is owed nothing; writes 1 and 3 are still to come");
    watcher.notified(change(Replicas.documentId(true, 1)), 7_000);
    assertFalse(watcher.done(8_000), "write 3 is still to come");
    assertTrue(watcher.done(2_000 + Duration.ofSeconds(2).toNanos()), "-Dquiet has passed");
    assertEquals(Optional.of("target couchbench_replicate_target_0 lacked 1 documents its source held, -Dquiet"
        + " after the last write"), watcher.verdict());
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

    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      for (int number = 0; number < writes; number++) {
        assertFalse(watcher.done(1_000_000 + number), "write " + number + " is still to come");
        watcher.notified(change(Replicas.documentId(true, number)), 1_000_000 + number);
      }
    });
    assertTrue(watcher.done(2_000_000), "every write seen");
    assertEquals(Optional.empty(), watcher.verdict());
  }

  private static ReplicatePlan plan(int docs, int writes) {
    return ReplicatePlan.from(Settings.of(Map.of("mode", "continuous", "docs", String.valueOf(docs), "writes",
        String.valueOf(writes), "quiet", "1"), Map.of()));
  }

  private static ReplicaWatcher watcher(ReplicatePlan plan, WriteLedger ledger) {
    return new ReplicaWatcher(plan, ledger, 0, URI.create("http://127.0.0.1:1"), new FeedRequest(plan.target(0),
        FeedKind.CONTINUOUS, Duration.ofSeconds(5), false, 0, Duration.ofSeconds(60), Duration.ofSeconds(1),
        Optional.empty(), List.of()));
  }

  private static Change change(String id) {
    return new Change("1-x", id, "1-a", false, false);
  }
}
