package couchbench.requests;

/**
 * Record assembly, the comparison seed 000's author asked for: a record of F fields is one CouchDB
 * document and F memcache keys. Field i of record r is stored under the same key in both systems,
 * so both hold the same text for it.
 */
final class RecordFields {

  /** A read's verdict when everything read is what was written. */
  static final String INTACT = "intact";

  private RecordFields() {}

  /**
   * @param record the record's id or key
   * @param field the field's index, 0 to F-1
   * @return the key of the field: the memcache key, and the key its text is derived from
   */
  static String key(String record, int field) {
    return record + ":" + field;
  }
}
