package couchbench.feed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * Reads the JSON of a changes feed with Jackson's streaming parser, taking what a listener needs (seq, id, the first
 * rev, deleted) and skipping the rest, the document of include_docs included: one row is parsed without a tree.
 */
final class ChangeRows {

  private static final JsonFactory JSON = new JsonFactory();

  private ChangeRows() {}

  /**
   * @param bytes a continuous feed's line, or an event's data
   * @return a {@link FeedEvent.Row}, or {@link FeedEvent.Ended} for the feed's last line ({"last_seq":...})
   * @throws IOException when it is not such a JSON object
   */
  static FeedEvent line(byte[] bytes) throws IOException {
    try (JsonParser parser = JSON.createParser(bytes)) {
      return object(parser, parser.nextToken());
    }
  }

  /**
   * Reads a poll's whole reply, {"results":[rows...],"last_seq":...}, adding each row and then its end.
   *
   * @param body the reply's body
   * @param out where the events go, in order
   * @throws IOException when it is not such a reply
   */
  static void poll(InputStream body, List<Object> out) throws IOException {
    try (JsonParser parser = JSON.createParser(body)) {
      expect(parser, parser.nextToken(), JsonToken.START_OBJECT);
      String lastSeq = null;
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken value = parser.nextToken();
        if (field.equals("results")) {
          expect(parser, value, JsonToken.START_ARRAY);
          for (JsonToken row = parser.nextToken(); row != JsonToken.END_ARRAY; row = parser.nextToken()) {
            out.add(object(parser, row));
          }
        } else if (field.equals("last_seq")) {
          lastSeq = scalar(parser, value);
        } else {
          parser.skipChildren();
        }
      }
      out.add(new FeedEvent.Ended(lastSeq));
    }
  }

  /** One object, its start token read: a row, or a last_seq line. */
  private static FeedEvent object(JsonParser parser, JsonToken start) throws IOException {
    expect(parser, start, JsonToken.START_OBJECT);
    String seq = null;
    String id = null;
    String rev = null;
    String lastSeq = null;
    boolean last = false;
    boolean deleted = false;
    boolean withDoc = false;
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String field = parser.currentName();
      JsonToken value = parser.nextToken();
      switch (field) {
        case "seq" -> seq = scalar(parser, value);
        case "id" -> id = parser.getText();
        case "changes" -> rev = firstRev(parser, value);
        case "deleted" -> deleted = value == JsonToken.VALUE_TRUE;
        case "doc" -> {
          withDoc = value == JsonToken.START_OBJECT;
          parser.skipChildren();
        }
        case "last_seq" -> {
          last = true;
          lastSeq = scalar(parser, value);
        }
        default -> parser.skipChildren();
      }
    }
    if (last && id == null) {
      return new FeedEvent.Ended(lastSeq);
    }
    if (id == null) {
      throw new IOException("a row without an id");
    }
    return new FeedEvent.Row(new Change(seq, id, rev, deleted, withDoc));
  }

  /** The rev of the first entry of "changes": [{"rev": "1-..."}, ...]. */
  private static String firstRev(JsonParser parser, JsonToken value) throws IOException {
    expect(parser, value, JsonToken.START_ARRAY);
    String rev = null;
    for (JsonToken entry = parser.nextToken(); entry != JsonToken.END_ARRAY; entry = parser.nextToken()) {
      expect(parser, entry, JsonToken.START_OBJECT);
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        JsonToken fieldValue = parser.nextToken();
        if (field.equals("rev") && rev == null) {
          rev = scalar(parser, fieldValue);
        } else {
          parser.skipChildren();
        }
      }
    }
    return rev;
  }

  /** A sequence as text: CouchDB's are strings, pouchdb-server's numbers; null stays null. */
  private static String scalar(JsonParser parser, JsonToken value) throws IOException {
    if (value == JsonToken.VALUE_NULL) {
      return null;
    }
    if (value.isScalarValue()) {
      return parser.getText();
    }
    throw new IOException("a sequence that is not a string or a number: " + value);
  }

  private static void expect(JsonParser parser, JsonToken got, JsonToken wanted) throws IOException {
    if (got != wanted) {
      throw new IOException("expected " + wanted + ", got " + got + " at " + parser.currentLocation().getCharOffset());
    }
  }
}
