package couchbench.couchdb;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
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

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * Reads a write reply for {@code expected} documents. The reply is read token by token, never
   * built into a tree: a bulk reply of 1024 results is read for every request of a load test, and
   * only each result's {@code ok} and {@code error} matter.
   *
   * @param body the reply body
   * @param expected how many documents the request carried
   * @return what was stored and what went wrong
   */
  public static DocWriteReply parse(byte[] body, int expected) {
    try {
      return parse(JSON.createParser(body), expected);
    } catch (IOException e) {
      return problem("reply is not JSON");
    }
  }

  /**
   * Reads a write reply from a stream, as {@link #parse(byte[], int)} does: for a reply that arrived in pieces
   * (Gatling's {@code bodyStream()}), without first copying it into one array. At B=1024 that copy, about 100 KB
   * a reply allocated and zeroed, was a fifth of the reply check's CPU (docs/cpu-per-request.md).
   *
   * @param body the reply body
   * @param expected how many documents the request carried
   * @return what was stored and what went wrong
   */
  public static DocWriteReply parse(InputStream body, int expected) {
    try {
      return parse(JSON.createParser(body), expected);
    } catch (IOException e) {
      return problem("reply is not JSON");
    }
  }

  private static DocWriteReply parse(JsonParser parser, int expected) throws IOException {
    try (JsonParser json = parser) {
      JsonToken root = json.nextToken();
      if (root == null) {
        return problem("empty reply");
      }
      Tally tally = new Tally();
      if (root == JsonToken.START_OBJECT) {
        Result result = result(json);
        if (result.error() != null) {
          return problem("request rejected: " + result.error());
        }
        if (expected != 1) {
          return problem("reply is not a list of document results");
        }
        tally.add(result);
      } else if (root == JsonToken.START_ARRAY) {
        for (JsonToken next = json.nextToken(); next != JsonToken.END_ARRAY; next = json.nextToken()) {
          if (next == null) {
            throw new IOException("reply ends inside the list");
          }
          tally.add(next == JsonToken.START_OBJECT ? result(json) : Result.NEITHER);
          json.skipChildren(); // a result that is a list itself
        }
      } else {
        return problem("reply is not a list of document results");
      }
      return tally.reply(expected);
    }
  }

  /**
   * A one-phrase verdict for Gatling's check: {@link #ALL_STORED}, or the problems found.
   *
   * @return the verdict
   */
  public String verdict() {
    return problems.isEmpty() ? ALL_STORED : String.join(", ", problems);
  }

  /** One document's result: ok true, or the error kind ({@code ""} when it is not a scalar). */
  private record Result(boolean ok, String error) {
    static final Result NEITHER = new Result(false, null);
  }

  /** Reads the object the parser has just entered, to its end; other fields are skipped unread. */
  private static Result result(JsonParser json) throws IOException {
    boolean ok = false;
    String error = null;
    for (String field = json.nextFieldName(); field != null; field = json.nextFieldName()) {
      JsonToken value = json.nextToken();
      if (field.equals("ok")) {
        ok = value == JsonToken.VALUE_TRUE;
      } else if (field.equals("error")) {
        error = value.isScalarValue() ? json.getValueAsString(json.getText()) : "";
      }
      json.skipChildren();
    }
    if (json.currentToken() != JsonToken.END_OBJECT) {
      throw new IOException("reply ends inside a result");
    }
    return new Result(ok, error);
  }

  private static final class Tally {
    private int stored;
    private int count;
    private final Set<String> problems = new TreeSet<>();

    void add(Result result) {
      count++;
      if (result.ok()) {
        stored++;
      } else if (result.error() != null) {
        problems.add("rejected: " + result.error());
      } else {
        problems.add("result without ok or error");
      }
    }

    DocWriteReply reply(int expected) {
      if (count != expected) {
        // Results are matched to documents by position: a short or long list means we cannot tell which.
        problems.add("reply has " + (count < expected ? "fewer" : "more") + " results than documents");
      }
      return new DocWriteReply(stored, Collections.unmodifiableSet(problems));
    }
  }

  private static DocWriteReply problem(String what) {
    return new DocWriteReply(0, Set.of(what));
  }
}
