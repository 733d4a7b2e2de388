package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * CouchDB's answer to a document write: one result object for {@code POST /db}, an array of them
 * for {@code POST /db/_bulk_docs}. Each result is {@code {"ok":true,"id":..}} or
 * {@code {"id":..,"error":kind,"reason":..}}; only the error kinds are kept, so failures group by
 * kind in the report instead of one line per document id.
 *
 * @param stored documents the server acknowledged
 * @param problems error kinds, or what was wrong with the reply itself; empty when all is well
 */
public record DocWriteReply(int stored, Set<String> problems) {

  /** The verdict of a reply in which every document was stored. */
  public static final String ALL_STORED = "all stored";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads a write reply for {@code expected} documents.
   *
   * @param body the reply body
   * @param expected how many documents the request carried
   * @return what was stored and what went wrong
   */
  public static DocWriteReply parse(byte[] body, int expected) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      return problem("reply is not JSON");
    }
    if (root == null || root.isMissingNode()) {
      return problem("empty reply");
    }
    if (root.isObject() && root.has("error")) {
      return problem("request rejected: " + root.path("error").asText());
    }
    if (root.isObject() && expected == 1) {
      return tally(List.of(root), expected);
    }
    if (!root.isArray()) {
      return problem("reply is not a list of document results");
    }
    return tally(root, expected);
  }

  /**
   * A one-phrase verdict for Gatling's check: {@link #ALL_STORED}, or the problems found.
   *
   * @return the verdict
   */
  public String verdict() {
    return problems.isEmpty() ? ALL_STORED : String.join(", ", problems);
  }

  private static DocWriteReply tally(Iterable<JsonNode> results, int expected) {
    int stored = 0;
    int count = 0;
    Set<String> problems = new TreeSet<>();
    for (JsonNode result : results) {
      count++;
      if (result.path("ok").asBoolean(false)) {
        stored++;
      } else if (result.has("error")) {
        problems.add("rejected: " + result.path("error").asText());
      } else {
        problems.add("result without ok or error");
      }
    }
    if (count != expected) {
      // Results are matched to documents by position: a short or long list means we cannot tell which.
      problems.add("reply has " + (count < expected ? "fewer" : "more") + " results than documents");
    }
    return new DocWriteReply(stored, Collections.unmodifiableSet(problems));
  }

  private static DocWriteReply problem(String what) {
    return new DocWriteReply(0, Set.of(what));
  }
}
