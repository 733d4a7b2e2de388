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
 * @param hotKeys each hot key's refills and CouchDB reads (-Dhot); empty without hot keys
 */
public record CacheAsideFigures(String load, String invalidate, String protection, long hits, long misses,
    long waited, long servedDuringRecache, long updates, long conflicts, List<HotKey> hotKeys) {

  /** A results.json written before stampedes came has no protection and no hot keys: none of either. */
  public CacheAsideFigures {
    protection = protection == null ? CacheAsidePlan.Protection.NONE.word() : protection;
    hotKeys = hotKeys == null ? List.of() : List.copyOf(hotKeys);
  }

  /**
   * One hot key's refills: from a read that missed it to the set that put it back, every read that went to CouchDB
   * meanwhile ({@link HotKeyRefills}).
   *
   * @param key the document id, e.g. hot000
   * @param refills times the key was read back from CouchDB: its first fill, and once per expiry
   * @param couchReads its reads that went to CouchDB
   * @param mostInOneRefill the CouchDB reads of its worst refill
   */
  public record HotKey(String key, long refills, long couchReads, long mostInOneRefill) {

    /** @return CouchDB reads per refill, 0 without any */
    public double readsPerRefill() {
      return ratio(couchReads, refills);
    }
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
