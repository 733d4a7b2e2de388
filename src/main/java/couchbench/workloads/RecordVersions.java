package couchbench.workloads;

import java.util.concurrent.ConcurrentHashMap;

/**
 * The version of each record a read must find at least: the run's own record of what was acknowledged. Records start
 * at version 1 (the load's, or an insert's). CouchDB orders the writes of a document by its {@code _rev}, so every
 * acknowledged version counts. A memcache set is last-writer-wins: two sets of one key that overlap may land in
 * either order, so a memcache write counts only when no other write of its key was in flight from its start to its
 * acknowledgement; then no older version can land after it. Only records written after the load are kept.
 */
final class RecordVersions {

  private final ConcurrentHashMap<Long, KeyState> states = new ConcurrentHashMap<>();

  /** One record's writes: versions handed out, writes in flight, and the version a read must find at least. */
  private static final class KeyState {
    long lastVersion = 1;
    long writesStarted;
    int inFlight;
    long floor = 1;
  }

  /**
   * A memcache write begun: its version, and whether it started alone.
   *
   * @param keyNumber the record
   * @param version the version it writes
   * @param startedAlone true when no other write of the record was in flight at its start
   * @param startNumber the record's count of writes started, this one included
   */
  record Write(long keyNumber, long version, boolean startedAlone, long startNumber) {}

  /** @return the version a read of the record, beginning now, must find at least */
  long floor(long keyNumber) {
    KeyState state = states.get(keyNumber);
    if (state == null) {
      return 1;
    }
    synchronized (state) {
      return state.floor;
    }
  }

  /**
   * Begins a memcache write of the record: hands out its next version.
   *
   * @param keyNumber the record
   * @return the write, to end with {@link #end}
   */
  Write begin(long keyNumber) {
    KeyState state = states.computeIfAbsent(keyNumber, key -> new KeyState());
    synchronized (state) {
      Write write = new Write(keyNumber, ++state.lastVersion, state.inFlight == 0, ++state.writesStarted);
      state.inFlight++;
      return write;
    }
  }

  /**
   * Ends a memcache write.
   *
   * @param write what {@link #begin} returned
   * @param acknowledged whether the server stored it
   */
  void end(Write write, boolean acknowledged) {
    KeyState state = states.get(write.keyNumber());
    synchronized (state) {
      state.inFlight--;
      if (acknowledged && write.startedAlone() && state.writesStarted == write.startNumber()) {
        state.floor = Math.max(state.floor, write.version());
      }
    }
  }

  /**
   * A CouchDB write acknowledged: the document is at that version now, or later.
   *
   * @param keyNumber the record
   * @param version its new {@code _rev} generation
   */
  void acknowledged(long keyNumber, long version) {
    KeyState state = states.computeIfAbsent(keyNumber, key -> new KeyState());
    synchronized (state) {
      state.floor = Math.max(state.floor, version);
      state.lastVersion = Math.max(state.lastVersion, version);
    }
  }
}
