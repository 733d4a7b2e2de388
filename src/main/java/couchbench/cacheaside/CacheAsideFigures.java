package couchbench.cacheaside;

import java.util.List;

/**
 * What a CacheAside run's page shows beyond results.json's entries and server counts: the reads the client found in
 * the cache and missed, the updates, and each hot key's CouchDB reads per refill.
 *
 * @param load the load in words ({@link CacheAsidePlan#describe})
 * @param invalidate what an update did to the cache: delete or set
 * @param protection the stampede protection of the reads: none, or meta
 * @param hits reads answered from the cache, at once or after waiting for another user's recache
 * @param misses reads whose memcache get did not find the key (or, with -Dprotect=meta, won its recache), each then
 *     sent to CouchDB
 * @param waited hits that first found an empty item another user was recaching and waited for its value
 *     (-Dprotect=meta)
 * @param servedDuringRecache hits that found another user recaching the key and served the value cached
 *     (-Dprotect=meta)
 * @param updates updates sent to CouchDB
 * @param conflicts updates CouchDB refused with 409 (another user's update of the document came first): the cache left
 *     alone
 * @param staleReads reads that returned a version of their document older than one CouchDB had acknowledged to a
 *     writer before the read's get began ({@link StaleReads}), those served stale on purpose among them
 * @param servedFlaggedStale reads served a value memcached flagged stale (X) while another user recached it
 *     (-Dprotect=meta), stale or not
 * @param staleOnPurpose the stale reads among those: the others were stale by the race ({@link #staleByRace})
 * @param hotKeys each hot key's refills and CouchDB reads (-Dhot); empty without hot keys
 * @param seconds the reads second by second, from second 0 of the run's seconds charts
 * @param coldCaches each time the cache was emptied (-Dbackground=restart-cache) and its warm-up; empty without
 * @param cacheMemory memcache's memory against the documents cached, and its evictions over the load; null where a
 *     server reports no limit_maxbytes or evictions (MemcacheDB 1.2), or in a results.json from before they came
 * @param missCauses the misses by cause ({@link MissCauses}), with memcached's get_expired and get_flushed; null in a
 *     results.json from before they came
 */
public record CacheAsideFigures(String load, String invalidate, String protection, long hits, long misses,
    long waited, long servedDuringRecache, long updates, long conflicts, long staleReads, long servedFlaggedStale,
    long staleOnPurpose, List<HotKey> hotKeys,
    List<ReadSecond> seconds, List<ColdCache> coldCaches, CacheMemory cacheMemory, Misses missCauses) {

  /**
   * The misses by cause, as the client knew its keys ({@link MissCauses}); they add up to the misses.
   *
   * @param cold the first read of a key: no set of it acknowledged before the get began
   * @param invalidated an update's delete (or md I) of the key sent after its last set
   * @param expired its last set at least the TTL less one second old
   * @param evicted the rest: memcached dropped the item to make room, or a restart or flush_all emptied the cache
   * @param recached with -Dprotect=meta, an mg that won the recache of a value still cached, its TTL left below R
   * @param getExpired memcached's get_expired over the load: gets that found the item expired (a count of expiries
   *     read, not of the misses after them); null where the server reports none
   * @param getFlushed memcached's get_flushed over the load: gets that found the item flushed; null where none
   */
  public record Misses(long cold, long invalidated, long expired, long evicted, long recached, Long getExpired,
      Long getFlushed) {

    /** @return the misses counted, every cause */
    public long total() {
      return cold + invalidated + expired + evicted + recached;
    }
  }

  /**
   * memcache's memory and what the run asked it to hold.
   *
   * @param limitBytes limit_maxbytes, summed over the servers: the memory items may take (memcached's -m)
   * @param documentsBytes about what every document cached at once takes (key, value and memcached's item header)
   * @param evictions items memcached evicted over the load to make room (its evictions counter; since the last
   *     restart of the cache, for a run that restarts it)
   */
  public record CacheMemory(long limitBytes, long documentsBytes, long evictions) {

    /** @return whether every document cached at once would not fit: evictions are to come */
    public boolean outgrown() {
      return documentsBytes > limitBytes;
    }
  }

  /** A results.json written before stampedes or cold caches came has none of them. */
  public CacheAsideFigures {
    protection = protection == null ? CacheAsidePlan.Protection.NONE.word() : protection;
    hotKeys = hotKeys == null ? List.of() : List.copyOf(hotKeys);
    seconds = seconds == null ? List.of() : List.copyOf(seconds);
    coldCaches = coldCaches == null ? List.of() : List.copyOf(coldCaches);
  }

  /**
   * The reads of one second ({@link ReadSeconds}).
   *
   * @param second seconds into the load, as seconds.csv's rows
   * @param hits reads found in the cache
   * @param misses reads not found, each sent to CouchDB
   * @param couchReads the misses' CouchDB reads answered 200: the database's reads a second
   * @param cacheDown reads whose get failed (the cache restarting), counted apart from hits and misses
   * @param staleReads hits and misses that returned a version older than one acknowledged before they began
   * @param staleOnPurpose those among them served a value memcached flagged stale (X) while another user recached it
   *     (-Dprotect=meta); the others were stale by the race ({@link #staleByRace}); 0 in a results.json from before
   * @param hitP50 the hits' p50, whole (the get), ms; NaN without a hit
   * @param hitP99 their p99
   * @param missP50 the misses' p50, whole (the get, CouchDB's read and the set), ms; NaN without a miss
   * @param missP99 their p99
   */
  public record ReadSecond(long second, long hits, long misses, long couchReads, long cacheDown, long staleReads,
      long staleOnPurpose, double hitP50, double hitP99, double missP50, double missP99) {

    /** @return the reads answered, hits and misses */
    public long reads() {
      return hits + misses;
    }

    /** @return the stale reads not flagged stale: the race of a read with a writer's invalidation */
    public long staleByRace() {
      return staleReads - staleOnPurpose;
    }

    /** @return hits over reads; NaN for a second without any */
    public double hitRatio() {
      return reads() == 0 ? Double.NaN : (double) hits / reads();
    }
  }

  /**
   * The cache emptied once during the load, and its warm-up ({@link WarmUp}).
   *
   * @param task the background task, e.g. "1 restart-cache"
   * @param emptiedAt when it began, seconds into the load
   * @param answeredAt when the server answered again, empty, seconds into the load
   * @param hitRatioBefore the hit ratio of the seconds before it; -1 when there was no read before
   * @param warmUpSeconds the seconds until the hit ratio was back; null when it was not back by the run's end
   * @param couchReadsBefore the CouchDB reads a second before it (the seconds of hitRatioBefore)
   * @param couchReadsWarmingUp the same from it until the hit ratio was back (or the run's end)
   * @param cacheDown the reads whose get failed while the cache was down
   */
  public record ColdCache(String task, double emptiedAt, double answeredAt, double hitRatioBefore,
      Long warmUpSeconds, double couchReadsBefore, double couchReadsWarmingUp, long cacheDown) {}

  /**
   * One hot key's refills: from a read that missed it to the set that put it back, every read that went to CouchDB
   * meanwhile ({@link HotKeyRefills}).
   *
   * @param key the document id, e.g. hot000
   * @param refills times the key was read back from CouchDB: its first fill, and once per expiry
   * @param couchReads its reads that went to CouchDB
   * @param mostInOneRefill the CouchDB reads of its worst refill
   * @param recaches its refills begun by an mg that won the recache of its value still cached, its TTL left below R
   *     (-Dprotect=meta); the others began with the key missing: its first fill, an expiry, an eviction
   */
  public record HotKey(String key, long refills, long couchReads, long mostInOneRefill, long recaches) {

    /** @return CouchDB reads per refill, 0 without any */
    public double readsPerRefill() {
      return ratio(couchReads, refills);
    }
  }

  /** @return the stale reads not flagged stale: the race of a read with a writer's invalidation */
  public long staleByRace() {
    return staleReads - staleOnPurpose;
  }

  /** @return hits over the reads answered, 0 without any */
  public double hitRatio() {
    return ratio(hits, hits + misses);
  }

  /**
   * @param part a count
   * @param whole the count it is part of
   * @return part over whole, 0 for a whole of 0
   */
  static double ratio(long part, long whole) {
    return whole == 0 ? 0 : (double) part / whole;
  }
}
