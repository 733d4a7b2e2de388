package couchbench.cacheaside;

/**
 * What a CacheAside run's page shows beyond results.json's entries and server counts: the reads the client found in
 * the cache and missed, and the updates.
 *
 * @param load the load in words ({@link CacheAsidePlan#describe})
 * @param invalidate what an update did to the cache: delete or set
 * @param hits reads whose memcache get found the key
 * @param misses reads whose memcache get did not, each then sent to CouchDB
 * @param updates updates sent to CouchDB
 * @param conflicts updates CouchDB refused with 409 (another user's update of the document came first): the cache left
 *     alone
 */
public record CacheAsideFigures(String load, String invalidate, long hits, long misses, long updates,
    long conflicts) {

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
