package couchbench.cacheaside;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Why each miss missed, from what the client knows of its key: when its sets were acknowledged and when its updates'
 * invalidations were sent. A miss is cold when no set of its key had been acknowledged before its get began (the
 * key's first read); invalidated when an update's delete (or md I) of the key was sent after the last set acknowledged
 * before the get began and before the get's reply (one sent but not yet acknowledged may have landed first); expired
 * when that set is at least the TTL less one second old (memcached's clock ticks once a second and an item expires at
 * the tick its TTL ends on, up to a second early); otherwise evicted (memcached dropped it to make room, or a restart or
 * flush_all emptied the cache). With -Dprotect=meta a read also misses when its mg wins the recache of a value still
 * cached: flagged stale (X), the key invalidated (md I marked it); not flagged, recached (its TTL left below R). Safe
 * for the load's users to call at once.
 */
final class MissCauses {

  // The events of a key kept to look back from a miss: enough for the few sets and invalidations that can cross one
  // get under 1,000 users of a key, without keeping a key's whole history.
  private static final int EVENTS_KEPT = 16;

  private final long expiresAfterNanos;
  private final Map<String, Deque<Event>> keys = new ConcurrentHashMap<>();
  private final LongAdder cold = new LongAdder();
  private final LongAdder invalidated = new LongAdder();
  private final LongAdder expired = new LongAdder();
  private final LongAdder evicted = new LongAdder();
  private final LongAdder recached = new LongAdder();

  // A set acknowledged, or an invalidation sent, at a System.nanoTime().
  private record Event(boolean set, long atNanos) {}

  /** What a read's mg found when it won the recache (-Dprotect=meta); NONE for every other miss. */
  enum Won { NONE, FLAGGED_STALE, TTL_BELOW_R }

  /** @param ttlSeconds the TTL the keys are set with; 0 for none, so nothing expires */
  MissCauses(int ttlSeconds) {
    this.expiresAfterNanos = ttlSeconds == 0 ? Long.MAX_VALUE : TimeUnit.SECONDS.toNanos(ttlSeconds - 1L);
  }

  /**
   * @param key the document id
   * @param atNanos when memcached acknowledged a set of it (a miss's, or an update's of the new version)
   */
  void cached(String key, long atNanos) {
    remember(key, new Event(true, atNanos));
  }

  /**
   * @param key the document id
   * @param atNanos when an update's delete (or md I) of it was sent
   */
  void invalidating(String key, long atNanos) {
    remember(key, new Event(false, atNanos));
  }

  private void remember(String key, Event event) {
    Deque<Event> events = keys.computeIfAbsent(key, k -> new ArrayDeque<>());
    synchronized (events) {
      events.addLast(event);
      if (events.size() > EVENTS_KEPT) {
        events.removeFirst();
      }
    }
  }

  /**
   * Counts a miss by its cause.
   *
   * @param key the document id
   * @param getBegan when its get began, System.nanoTime()
   * @param missKnown when its get's reply came
   * @param won what its mg found when it won a recache of a value still cached (-Dprotect=meta), else NONE
   */
  void missed(String key, long getBegan, long missKnown, Won won) {
    if (won == Won.FLAGGED_STALE) {
      invalidated.increment();
      return;
    }
    if (won == Won.TTL_BELOW_R) {
      recached.increment();
      return;
    }
    Deque<Event> events = keys.getOrDefault(key, new ArrayDeque<>());
    boolean invalidation = false;
    Long set = null;
    synchronized (events) {
      for (Iterator<Event> back = events.descendingIterator(); back.hasNext() && set == null; ) {
        Event event = back.next();
        if (event.set() && event.atNanos() - getBegan < 0) {
          set = event.atNanos();
        } else if (!event.set() && event.atNanos() - missKnown < 0) {
          invalidation = true;
        }
      }
    }
    if (set == null) {
      cold.increment();
    } else if (invalidation) {
      invalidated.increment();
    } else if (getBegan - set >= expiresAfterNanos) {
      expired.increment();
    } else {
      evicted.increment();
    }
  }

  /**
   * @param getExpired memcached's get_expired over the load, null where it reports none
   * @param getFlushed memcached's get_flushed over the load, null where it reports none
   * @return the counts so far, with memcached's beside them
   */
  CacheAsideFigures.Misses counts(Long getExpired, Long getFlushed) {
    return new CacheAsideFigures.Misses(cold.sum(), invalidated.sum(), expired.sum(), evicted.sum(), recached.sum(),
        getExpired, getFlushed);
  }
}
