package couchbench.cacheaside;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CouchDB reads of each hot key, by refill: a refill is the time from a read that missed the key (its first
 * expiry, or the cache still empty of it) to the set that put it back. Every read whose get began before that set was
 * acknowledged and that then read CouchDB is that refill's; one is ideal, a stampede is many. A read is given to the
 * refill by when its get began, not when its miss was known: a user whose get missed just before the set landed, and
 * whose CouchDB read came after, missed the same expiry. Safe for the load's users to call at once.
 */
final class HotKeyRefills {

  private final Map<String, Key> keys = new LinkedHashMap<>();

  // One hot key's refills: the reads of each, in order; the last one open until a set closes it.
  private static final class Key {
    private final List<Integer> reads = new ArrayList<>();
    private boolean open;
    private long openedByGetAt;
    private long lastClosedAt = Long.MIN_VALUE;
    private long recaches;
  }

  /** @param hotKeys the hot keys, in the order the page lists them */
  HotKeyRefills(List<String> hotKeys) {
    hotKeys.forEach(key -> keys.put(key, new Key()));
  }

  /**
   * A read of the key that missed (or won the recache) and went to CouchDB.
   *
   * @param key a hot key
   * @param getBegan when its get began, System.nanoTime()
   */
  void readCouchDb(String key, long getBegan) {
    Key refills = keys.get(key);
    synchronized (refills) {
      int last = refills.reads.size() - 1;
      if (getBegan < refills.lastClosedAt) { // a refill has been closed, and this read is its
        int closed = refills.open ? last - 1 : last;
        refills.reads.set(closed, refills.reads.get(closed) + 1);
      } else if (refills.open) {
        refills.reads.set(last, refills.reads.get(last) + 1);
      } else {
        refills.reads.add(1);
        refills.open = true;
        refills.openedByGetAt = getBegan;
      }
    }
  }

  /**
   * A read of the key that won its recache with the value still cached (-Dprotect=meta's R), after {@link #readCouchDb}
   * counted it.
   *
   * @param key a hot key
   */
  void recached(String key) {
    Key refills = keys.get(key);
    synchronized (refills) {
      refills.recaches++;
    }
  }

  /**
   * The set of a value read from CouchDB, acknowledged: it closes the key's open refill, unless the setter's get began
   * before that refill's first one did (a late setter of the refill before).
   *
   * @param key a hot key
   * @param getBegan when the setter's get began, System.nanoTime()
   * @param now when the set was acknowledged, System.nanoTime()
   */
  void cached(String key, long getBegan, long now) {
    Key refills = keys.get(key);
    synchronized (refills) {
      if (refills.open && getBegan >= refills.openedByGetAt) {
        refills.open = false;
        refills.lastClosedAt = now;
      }
    }
  }

  /** @return each hot key's refills and CouchDB reads so far, in the order given */
  List<CacheAsideFigures.HotKey> counts() {
    List<CacheAsideFigures.HotKey> counts = new ArrayList<>();
    keys.forEach((key, refills) -> {
      synchronized (refills) {
        counts.add(new CacheAsideFigures.HotKey(key, refills.reads.size(),
            refills.reads.stream().mapToLong(Integer::longValue).sum(),
            refills.reads.stream().mapToInt(Integer::intValue).max().orElse(0), refills.recaches));
      }
    });
    return counts;
  }
}
