package couchbench.replication;

import couchbench.feed.Change;
import couchbench.feed.FeedRequest;
import couchbench.feed.Subscription;
import couchbench.ledger.Arrival;
import couchbench.ledger.WriteLedger;
import java.net.URI;
import java.util.BitSet;
import java.util.Locale;
import java.util.Optional;

/**
 * Follows one continuous replication's target through its _changes, from 0: when the documents its source held are
 * all there (the first copy), and, for each document written into the source while it runs, how long after its
 * acknowledgement and after its send it reached the target (the replication's lag, each a notification in Gatling's
 * report, timed from the acknowledgement; one that came before it is counted apart). Once the writers are done, it is
 * done when the target holds every document the source acknowledged, or when -Dquiet has passed. Called on its feed's
 * event loop only; read after the run.
 */
final class ReplicaWatcher implements Subscription {

  private final ReplicatePlan plan;
  private final WriteLedger ledger;
  private final ReplicationTally tally;
  private final int job;
  private final URI server;
  private final FeedRequest request;
  private final BitSet docs = new BitSet();
  private final BitSet writes = new BitSet();
  private int docsSeen;
  private long copied = -1;
  private long lastSeen;
  // What the target still lacks of what its source holds: counted once the writers are done, then kept by each
  // change, so that a change costs the same however many writes there were; -1 before.
  private long owed = -1;
  private long missing = -1;
  private long duplicated;

  /**
   * @param plan the run's plan
   * @param ledger the writes into the sources, as the writers learn how they went: a writer per job
   * @param tally where the first copies and the writes' arrivals go
   * @param job its replication
   * @param server the target's server
   * @param request what it asks of the target's _changes
   */
  ReplicaWatcher(ReplicatePlan plan, WriteLedger ledger, ReplicationTally tally, int job, URI server,
      FeedRequest request) {
    this.plan = plan;
    this.ledger = ledger;
    this.tally = tally;
    this.job = job;
    this.server = server;
    this.request = request;
  }

  @Override
  public URI node() {
    return server;
  }

  @Override
  public FeedRequest request() {
    return request;
  }

  @Override
  public String since() {
    return "0";
  }

  @Override
  public String requestName() {
    return ReplicationLoad.REPLICATED_WRITE;
  }

  @Override
  public void attached() {
    // The feed from 0 is open: what the replication already copied comes first.
  }

  @Override
  public long notified(Change change, long nanos) {
    String id = change.id();
    boolean written = id.startsWith("write-");
    int number = number(id);
    if (number < 0 || (written ? number >= plan.writes() : number >= plan.docs())) {
      return -1;
    }
    BitSet seen = written ? writes : docs;
    if (seen.get(number)) {
      duplicated++;
      return -1;
    }
    seen.set(number);
    lastSeen = nanos;
    if (owed > 0 && (!written || ledger.isAcknowledged(job, number))) {
      owed--;
    }
    if (!written) {
      // Counted, not the bit set's cardinality, which would read the whole set for each change.
      if (++docsSeen == plan.docs()) {
        copied = nanos;
        tally.copied(job);
      }
      return -1;
    }
    Arrival arrival = ledger.arrived(job, number, nanos);
    tally.replicated(arrival);
    return arrival.timedFrom();
  }

  private static int number(String id) {
    int dash = id.indexOf('-');
    try {
      return dash < 0 ? -1 : Integer.parseInt(id.substring(dash + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  @Override
  public void reconnecting(String why) {
    // Goes on from its last seq: a change seen again is counted as a duplicate, not twice.
  }

  @Override
  public boolean done(long nanos) {
    if (plan.docs() == 0 && copied < 0) {
      copied = nanos;
      tally.copied(job);
    }
    if (!ledger.finished()) {
      return false;
    }
    if (owed < 0) {
      countOwed();
    }
    if (owed == 0 || nanos - ledger.finishedAt() > plan.quiet().toNanos()) {
      missing = owed;
      return true;
    }
    return false;
  }

  // Once the writers are done: the first documents and the acknowledged writes not seen yet.
  private void countOwed() {
    owed = plan.docs() - docsSeen;
    for (int number = 0; number < plan.writes(); number++) {
      owed += ledger.isAcknowledged(job, number) && !writes.get(number) ? 1 : 0;
    }
  }

  @Override
  public String verdictName() {
    return ReplicationLoad.TARGET_LEVEL;
  }

  @Override
  public Optional<String> verdict() {
    return missing > 0 ? Optional.of(String.format(Locale.ROOT, "target %s lacked %,d documents its source held,"
        + " -Dquiet after the last write", plan.target(job), missing)) : Optional.empty();
  }

  /**
   * @param loadStart the load's start, on System.nanoTime's clock
   * @return what it saw, once done
   */
  ReplicateFigures.Watched figures(long loadStart) {
    return new ReplicateFigures.Watched(job, docs.cardinality(), writes.cardinality(), duplicated,
        Math.max(0, missing), copied < 0 ? -1 : (copied - loadStart) / 1e9,
        lastSeen == 0 || ledger.acknowledgedCount() == 0 ? -1 : Math.max(0, lastSeen - ledger.lastAcknowledged()) / 1e9);
  }
}
