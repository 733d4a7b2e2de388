package couchbench.changes;

import couchbench.feed.Change;
import couchbench.feed.FeedRequest;
import couchbench.feed.Subscription;
import couchbench.ledger.Arrival;
import couchbench.ledger.WriteLedger;
import java.net.URI;
import java.util.BitSet;
import java.util.Optional;

/**
 * One listener: follows one database's feed and accounts for every write it should see. A write it sees for the first
 * time is delivered, timed from its acknowledgement (0 when the notification came before the writer had its reply:
 * counted apart) and from when its request was sent; seen again, it is redelivered when a reconnection replayed it, else duplicated; a writer's write
 * older than one already seen from it is out of order; a write the filter excludes is unexpected. Once the writers
 * are done, the listener is done when it saw every acknowledged write it should, or when -Dquiet has passed: what is
 * still missing then is missed, and fails it. Called on its event loop only; read after the run.
 */
final class Listener implements Subscription {

  private final ChangesPlan plan;
  private final WriteLedger ledger;
  private final FeedTally tally;
  private final int database;
  private final URI node;
  private final FeedRequest request;
  private final String since;
  private final BitSet[] seen;
  private final int[] newest;
  private boolean replaying;
  private long missing = -1;
  private long expected;

  /**
   * @param plan the run's plan
   * @param ledger the writes, as the writers learn how they went
   * @param tally its feed's counts, which it adds to
   * @param database the database it follows
   * @param node the node it follows it through
   * @param request what it asks of _changes
   * @param since where its feed starts
   */
  Listener(ChangesPlan plan, WriteLedger ledger, FeedTally tally, int database, URI node, FeedRequest request,
      String since) {
    this.plan = plan;
    this.ledger = ledger;
    this.tally = tally;
    this.database = database;
    this.node = node;
    this.request = request;
    this.since = since;
    this.seen = new BitSet[ledger.writers()];
    this.newest = new int[ledger.writers()];
    for (int writer = 0; writer < seen.length; writer++) {
      seen[writer] = new BitSet();
      newest[writer] = -1;
    }
  }

  @Override
  public URI node() {
    return node;
  }

  @Override
  public FeedRequest request() {
    return request;
  }

  @Override
  public String since() {
    return since;
  }

  @Override
  public String requestName() {
    return ChangesLoad.notificationOf(request.kind());
  }

  @Override
  public void attached() {
    tally.attached();
  }

  @Override
  public long notified(Change change, long nanos) {
    tally.row();
    DocumentId id = DocumentId.parse(change.id());
    if (id == null || !ledger.holds(id.writer(), id.seq())) {
      tally.count(FeedTally.Count.FOREIGN);
      return -1;
    }
    if (plan.databaseOf(id.seq()) != database || !plan.followed(id.seq())) {
      tally.count(FeedTally.Count.UNEXPECTED);
      return -1;
    }
    BitSet writerSeen = seen[id.writer()];
    if (writerSeen.get(id.seq())) {
      tally.count(replaying ? FeedTally.Count.REDELIVERED : FeedTally.Count.DUPLICATED);
      return -1;
    }
    writerSeen.set(id.seq());
    replaying = false;
    if (id.seq() < newest[id.writer()]) {
      tally.count(FeedTally.Count.OUT_OF_ORDER);
    }
    newest[id.writer()] = Math.max(newest[id.writer()], id.seq());
    // Once the writers are done, what it still owes is kept here: each acknowledged write seen is one less.
    if (missing > 0 && ledger.isAcknowledged(id.writer(), id.seq())) {
      missing--;
    }
    Arrival arrival = ledger.arrived(id.writer(), id.seq(), nanos);
    tally.delivered(arrival);
    return arrival.timedFrom();
  }

  @Override
  public void reconnecting(String why) {
    replaying = true;
    tally.reconnected(why);
  }

  @Override
  public boolean done(long nanos) {
    if (!ledger.finished()) {
      return false;
    }
    if (missing < 0) {
      countMissing();
    }
    return missing == 0 || nanos - ledger.finishedAt() > plan.quiet().toNanos();
  }

  // Once the writers are done: the acknowledged writes it should see and has not seen yet.
  private void countMissing() {
    missing = 0;
    for (int writer = 0; writer < seen.length; writer++) {
      for (int seq = 0; seq < ledger.writes(); seq++) {
        if (shouldSee(writer, seq)) {
          expected++;
          missing += seen[writer].get(seq) ? 0 : 1;
        }
      }
    }
  }

  private boolean shouldSee(int writer, int seq) {
    return plan.databaseOf(seq) == database && plan.followed(seq) && ledger.isAcknowledged(writer, seq);
  }

  private String firstMissed() {
    for (int writer = 0; writer < seen.length; writer++) {
      for (int seq = 0; seq < ledger.writes(); seq++) {
        if (shouldSee(writer, seq) && !seen[writer].get(seq)) {
          return ChangesPlan.id(writer, seq);
        }
      }
    }
    return "none";
  }

  @Override
  public Optional<String> verdict() {
    if (missing < 0) {
      countMissing(); // stopped before the writers were done: the run was cut short
    }
    tally.finished(expected, missing);
    return missing == 0 ? Optional.empty() : Optional.of(String.format("missed %,d of the %,d acknowledged writes it"
        + " should have seen (%s first), %d s after the last write", missing, expected, firstMissed(),
        plan.quiet().toSeconds()));
  }

  /** A document's id as the writers make it: "w" writer "-" seq. */
  record DocumentId(int writer, int seq) {

    /** @return the id's writer and seq; null for an id the writers do not make */
    static DocumentId parse(String id) {
      int dash = id.indexOf('-');
      if (!id.startsWith("w") || dash < 2) {
        return null;
      }
      try {
        return new DocumentId(Integer.parseInt(id, 1, dash, 10), Integer.parseInt(id, dash + 1, id.length(), 10));
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
