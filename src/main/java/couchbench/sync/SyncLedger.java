package couchbench.sync;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * What the clients' syncs moved, over all clients: each revision pushed, when and by whom, and the time until each
 * other client of its database pulled it (how long until a write of one client reaches the others).
 */
final class SyncLedger {

  private record Push(int client, long nanos) {}

  private final Map<String, Push> pushes = new ConcurrentHashMap<>();
  private final Histogram reachMicros = new ConcurrentHistogram(3);
  private final LongAdder pushed = new LongAdder();
  private final LongAdder pulled = new LongAdder();
  private final LongAdder syncs = new LongAdder();
  private final LongAdder failedSyncs = new LongAdder();
  private final LongAdder serverEdits = new LongAdder();
  private final LongAdder serverEditsRefused = new LongAdder();
  private final LongAdder cuts = new LongAdder();
  private final LongAdder readAgain = new LongAdder();

  /**
   * @param rev a revision a client pushed
   * @param client the client
   * @param nanos when the server acknowledged it, on System.nanoTime's clock
   */
  void pushed(String rev, int client, long nanos) {
    pushes.put(rev, new Push(client, nanos));
    pushed.increment();
  }

  /**
   * @param rev a revision a client pulled
   * @param client the client
   * @param nanos when the reply that gave it came
   */
  void reached(String rev, int client, long nanos) {
    pulled.increment();
    Push push = pushes.get(rev);
    if (push != null && push.client() != client) {
      reachMicros.recordValue(Math.max(0, nanos - push.nanos()) / 1000);
    }
  }

  /**
   * A sync ended.
   *
   * @param failed whether one of its requests failed
   */
  void synced(boolean failed) {
    syncs.increment();
    if (failed) {
      failedSyncs.increment();
    }
  }

  /**
   * An edit on the server was answered.
   *
   * @param refused whether CouchDB refused it for a newer revision (409)
   */
  void serverEdit(boolean refused) {
    (refused ? serverEditsRefused : serverEdits).increment();
  }

  /** A sync was cut mid-pull (-DdropEvery). */
  void cut() {
    cuts.increment();
  }

  /** A revision a resumed pull read in _changes again, and that its client already held: not pulled twice. */
  void readAgain() {
    readAgain.increment();
  }

  /** @return the syncs cut mid-pull */
  long cuts() {
    return cuts.sum();
  }

  /** @return the revisions resumed pulls read again and found held */
  long readAgainCount() {
    return readAgain.sum();
  }

  /** @return the edits made on the server */
  long serverEdits() {
    return serverEdits.sum();
  }

  /** @return the edits on the server refused (409) */
  long serverEditsRefused() {
    return serverEditsRefused.sum();
  }

  /** @return the revisions pushed */
  long pushedCount() {
    return pushed.sum();
  }

  /** @return the revisions pulled */
  long pulledCount() {
    return pulled.sum();
  }

  /** @return the syncs ended */
  long syncs() {
    return syncs.sum();
  }

  /** @return the syncs with a failed request */
  long failedSyncs() {
    return failedSyncs.sum();
  }

  /** @return each revision's time from its push to its pull by another client, in microseconds */
  Histogram reach() {
    return reachMicros;
  }
}
