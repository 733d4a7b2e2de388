package couchbench.cacheaside;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Stale reads: a read that returned a version of its document older than the newest one CouchDB had acknowledged to
 * any writer before the read's get began. A read that began before that acknowledgement may return the old version
 * (the write was not known yet); one that began after it and still gets the old version was served a value the
 * invalidation should have removed: a reader's miss whose CouchDB read saw the old version and whose set landed after
 * the writer's invalidation, or an invalidation not yet landed. With -Dprotect=meta a read may also be served a value
 * memcached flagged stale (X: an update's md I marked it, or a late recache was stored marked so) while another reader
 * recaches it: when its version is older, it is a stale read like any other, served stale on purpose; counted apart
 * from those stale by the race.
 */
final class StaleReads {

  private static final JsonFactory JSON = new JsonFactory();

  // When each version was acknowledged, by "<id>:<version>", on System.nanoTime's clock (the reads' starts' clock).
  // Every version, not only the newest: a read that began between version 2's ack and version 3's and returned
  // version 1 is stale, which the newest alone (3, after the read began) would not show. A document's versions are
  // acknowledged in order (an update carries the _rev of the newest acknowledged one), so the ack of version v + 1 is
  // the first of any version above v.
  private final Map<String, Long> acknowledged = new ConcurrentHashMap<>();
  private final LongAdder count = new LongAdder();
  private final LongAdder flagged = new LongAdder();
  private final LongAdder flaggedAndStale = new LongAdder();

  /**
   * @param id the document id
   * @param version the version CouchDB acknowledged to its writer
   * @param atNanos when the writer got the acknowledgement, on System.nanoTime's clock: after CouchDB sent it, so a
   *     read that began in between is not called stale (a count that errs low, never high)
   */
  void acknowledged(String id, long version, long atNanos) {
    acknowledged.put(id + ":" + version, atNanos);
  }

  /**
   * Counts the read if it is stale.
   *
   * @param id the document id
   * @param version the version the read returned
   * @param getBeganNanos when the read's get began, on System.nanoTime's clock
   * @param flaggedStale whether memcached flagged the value it returned stale (X); false for a read of CouchDB
   * @return whether the read was stale: a newer version was acknowledged before its get began
   */
  boolean read(String id, long version, long getBeganNanos, boolean flaggedStale) {
    Long newer = acknowledged.get(id + ":" + (version + 1));
    boolean stale = newer != null && newer - getBeganNanos < 0;
    if (stale) {
      count.increment();
    }
    if (flaggedStale) {
      flagged.increment();
      if (stale) {
        flaggedAndStale.increment();
      }
    }
    return stale;
  }

  /** @return the stale reads counted */
  long count() {
    return count.sum();
  }

  /**
   * @return the reads served a value memcached flagged stale (X), stale or not: one whose version is the newest was
   *     marked by an invalidation that landed after a recache had read that version
   */
  long flagged() {
    return flagged.sum();
  }

  /** @return the stale reads among those flagged: served stale on purpose; the other stale reads are the race's */
  long flaggedAndStale() {
    return flaggedAndStale.sum();
  }

  /**
   * The document's top-level {@code version}, read with Jackson's streaming parser: it stops there, before the text
   * that follows it, and builds no tree (a read's hot path; a cached document is a few hundred bytes).
   *
   * @param document a document's JSON, as CouchDB returns it or as it was set in the cache
   * @return its version
   * @throws IllegalStateException when the document is no JSON object with a numeric version: never one this run
   *     wrote, as every cache key carries the run's tag
   */
  static long version(byte[] document) {
    try (JsonParser parser = JSON.createParser(document)) {
      if (parser.nextToken() == JsonToken.START_OBJECT) {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          boolean isVersion = parser.currentName().equals("version");
          if (parser.nextToken() == JsonToken.VALUE_NUMBER_INT && isVersion) {
            return parser.getLongValue();
          }
          parser.skipChildren();
        }
      }
    } catch (IOException notJson) {
      throw new IllegalStateException("a cached or read document is not JSON: " + notJson.getMessage(), notJson);
    }
    throw new IllegalStateException("a cached or read document has no numeric version");
  }
}
