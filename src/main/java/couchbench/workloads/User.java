package couchbench.workloads;

import couchbench.distributions.KeyChooser;
import java.util.function.LongUnaryOperator;
import java.util.function.Supplier;

/**
 * One virtual user's state, kept in its session: its key draws, its operation draws, its schedule, and the
 * operation under way. A user runs one operation at a time, so its state needs no lock.
 */
final class User {

  final KeyChooser keys;
  final Supplier<Operation> operations;
  final Supplier<Integer> scanLengths;
  private final LongUnaryOperator intendedStarts;

  Operation operation;
  long keyNumber;
  String key;
  /** The version a read must find at least, taken when the operation is drawn. */
  long atLeast;
  /** A memcache write under way, or null. */
  RecordVersions.Write write;
  /** The version a CouchDB write makes (its new _rev's generation), or 0. */
  long written;
  /** The _rev an update or read-modify-write read, or null. */
  String rev;
  /** The cas unique a read-modify-write's gets read. */
  long casUnique;
  int scanLength;
  boolean conflict;
  /** Whether a read found the record's fields at two versions. */
  boolean torn;
  long intendedStart;
  long actualStart;

  /**
   * @param intendedStarts from now, the intended start of its next operation: now without a schedule (each starts
   *     when the last ends), else the schedule's next tick
   */
  User(KeyChooser keys, Supplier<Operation> operations, Supplier<Integer> scanLengths,
      LongUnaryOperator intendedStarts) {
    this.keys = keys;
    this.operations = operations;
    this.scanLengths = scanLengths;
    this.intendedStarts = intendedStarts;
  }

  /** Draws the next operation and sets its intended start. */
  void next(Operation drawn, long now) {
    operation = drawn;
    intendedStart = intendedStarts.applyAsLong(now);
    write = null;
    written = 0;
    rev = null;
    conflict = false;
    torn = false;
  }
}
