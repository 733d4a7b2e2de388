package couchbench.workloads;

import couchbench.distributions.InsertSequence;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One system's records over a run: what they hold at each version, the versions acknowledged, the numbers of new
 * records, and the load phase's claims of the first {@code records} numbers. Each system has its own: both start at
 * record 0.
 */
final class SystemRecords {

  private final String system;
  private final RecordContent content;
  private final RecordVersions versions = new RecordVersions();
  private final InsertSequence inserts;
  private final int records;
  private final AtomicLong loadClaims = new AtomicLong();
  private final AtomicLong loaded = new AtomicLong();

  SystemRecords(String system, WorkloadPlan plan) {
    this.system = system;
    this.content = new RecordContent(plan.fields(), plan.fieldLength());
    this.records = plan.records();
    this.inserts = new InsertSequence(records);
  }

  String system() {
    return system;
  }

  RecordContent content() {
    return content;
  }

  RecordVersions versions() {
    return versions;
  }

  InsertSequence inserts() {
    return inserts;
  }

  /** @return the next record for the load phase to insert, or -1 once all are claimed */
  long claimForLoad() {
    long keyNumber = loadClaims.getAndIncrement();
    return keyNumber < records ? keyNumber : -1;
  }

  /** Counts a record the load phase inserted and the server acknowledged. */
  void loadedOne() {
    loaded.incrementAndGet();
  }

  /** @return records the load phase inserted and the server acknowledged */
  long loaded() {
    return loaded.get();
  }

  /** @return records the operations inserted, acknowledged or not (YCSB acknowledges every insert it tried) */
  long insertsTried() {
    return inserts.lastAcknowledged() + 1 - records;
  }
}
