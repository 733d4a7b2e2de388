package couchbench.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The freshness writers' searches for their own writes: each asks for the write's own word until a reply has it, and
 * says whether this one did; a reply without it, though it came after the write's acknowledgement, is a stale search.
 * Counted for the page: the searches, the stale ones, the writes found and those not found in time.
 */
final class Freshness {

  /** A reply that has the write. */
  static final String FOUND = "found";

  /** A reply without it: the index does not have it yet. */
  static final String NOT_YET = "not yet";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final LongAdder searches = new LongAdder();
  private final LongAdder stale = new LongAdder();
  private final LongAdder found = new LongAdder();
  private final LongAdder notFound = new LongAdder();

  /**
   * @param database the database
   * @param write the write
   * @param update false to search with update=false
   * @return the search for it, of its partition in a partitioned database
   */
  static String path(String database, Write write, boolean update) {
    return SearchIndex.path(database, write.partition()) + "?q=" + SearchCall.encode("title:" + write.token())
        + "&limit=1" + (update ? "" : "&update=false");
  }

  /**
   * @param body a reply to {@link #path}
   * @param write the write it searched for
   * @return {@link #FOUND}, {@link #NOT_YET}, or what is wrong
   */
  String verdict(byte[] body, Write write) {
    searches.increment();
    JsonNode reply;
    try {
      reply = JSON.readTree(body);
    } catch (IOException e) {
      return "not JSON: " + e.getMessage();
    }
    if (reply == null || !reply.path("hits").isArray()) {
      return reply != null && reply.has("error") ? SearchCall.refusal(reply) : "no hits array in the reply";
    }
    JsonNode hits = reply.path("hits");
    if (hits.isEmpty()) {
      stale.increment();
      return NOT_YET;
    }
    String id = hits.get(0).path("id").asText();
    return hits.size() == 1 && id.equals(write.id()) ? FOUND : "a hit that is not the write " + write.id() + ": " + id;
  }

  /**
   * Counts a write's search ended.
   *
   * @param wasFound whether a reply had it
   */
  void ended(boolean wasFound) {
    (wasFound ? found : notFound).increment();
  }

  /** @return the counts so far */
  SearchFigures.Freshness figures() {
    return new SearchFigures.Freshness(searches.sum(), stale.sum(), found.sum(), notFound.sum());
  }
}
