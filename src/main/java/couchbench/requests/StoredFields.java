package couchbench.requests;

import couchbench.data.KeyFile;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A memcache record is F keys written by F sets: it is acknowledged, and goes into the key file,
 * once all F were STORED. Also counts every STORED field, acknowledged record or not, which is
 * what the server's item count grows by. Safe from any thread.
 */
public final class StoredFields {

  private final int fields;
  private final KeyFile records;
  private final ConcurrentHashMap<String, Integer> storedByRecord = new ConcurrentHashMap<>();
  private final LongAdder stored = new LongAdder();

  /**
   * @param fields F, the fields of a record
   * @param records where acknowledged record keys are recorded
   */
  public StoredFields(int fields, KeyFile records) {
    this.fields = fields;
    this.records = records;
  }

  /**
   * Counts one field the server answered STORED.
   *
   * @param record the record's key
   */
  void stored(String record) {
    stored.increment();
    if (storedByRecord.merge(record, 1, Integer::sum) == fields) {
      storedByRecord.remove(record);
      records.record(record);
    }
  }

  /**
   * Forgets a record whose write has ended, whole or not: a record with a failed field would
   * otherwise stay counted for the rest of the run, so that the count holds at most one record per
   * user.
   *
   * @param record the record's key
   */
  void ended(String record) {
    storedByRecord.remove(record);
  }

  /** @return F */
  int fields() {
    return fields;
  }

  /** @return every field stored so far */
  public long storedCount() {
    return stored.sum();
  }
}
