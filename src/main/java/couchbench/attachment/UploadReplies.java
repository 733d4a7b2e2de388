package couchbench.attachment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.DocWriteReply;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Verdicts on CouchDB's replies, one phrase each for Gatling's checks and the summary: did the
 * upload's reply say stored, and does the document read back hold the attachment intact (CouchDB's
 * length and {@code md5-} digest equal the source file's).
 */
public final class UploadReplies {

  /** The verdict of an upload whose documents were all stored. */
  public static final String STORED = DocWriteReply.ALL_STORED;

  /** The verdict of a read-back in which every attachment has the source's length and digest. */
  public static final String INTACT = "intact";

  private static final ObjectMapper JSON = new ObjectMapper();

  private UploadReplies() {}

  /**
   * The verdict on an upload's reply.
   *
   * @param status the HTTP status
   * @param body the reply body
   * @param docs documents the request carried
   * @return {@link #STORED}, else e.g. {@code 413 too_large: the request entity is too large}
   */
  public static String upload(int status, byte[] body, int docs) {
    if (status < 200 || status > 299) {
      return status + " " + CouchDbClient.reason(body);
    }
    return DocWriteReply.parse(body, docs).verdict();
  }

  /**
   * The verdict on one document read back with {@code GET /db/doc}.
   *
   * @param body the document
   * @param source the file that was uploaded
   * @return {@link #INTACT}, else what differs
   */
  public static String document(byte[] body, AttachmentFile source) {
    JsonNode doc = parse(body);
    return doc == null ? "reply is not JSON" : attachment(doc, source);
  }

  /**
   * The verdict on documents read back with {@code POST /db/_all_docs?include_docs=true}.
   *
   * @param body the reply, with one row per key asked for
   * @param source the file every document holds
   * @param docs how many documents were asked for
   * @return {@link #INTACT} when every row holds it intact, else the first difference
   */
  public static String documents(byte[] body, AttachmentFile source, int docs) {
    JsonNode root = parse(body);
    if (root == null || !root.path("rows").isArray()) {
      return "reply has no rows";
    }
    JsonNode rows = root.path("rows");
    if (rows.size() != docs) {
      return rows.size() + " documents read back (expected " + docs + ")";
    }
    for (JsonNode row : rows) {
      String verdict = row.has("doc") && row.path("doc").isObject()
          ? attachment(row.path("doc"), source)
          : "document " + row.path("key").asText() + ": " + row.path("error").asText("missing");
      if (!verdict.equals(INTACT)) {
        return verdict;
      }
    }
    return INTACT;
  }

  /**
   * The {@code _all_docs} query body that reads documents back.
   *
   * @param ids the document ids
   * @return {@code {"keys":[...]}}
   */
  public static String keys(List<String> ids) {
    try {
      return JSON.writeValueAsString(Map.of("keys", new ArrayList<>(ids)));
    } catch (IOException e) {
      throw new IllegalStateException("ids cannot be written as JSON", e);
    }
  }

  private static String attachment(JsonNode doc, AttachmentFile source) {
    JsonNode attachment = doc.path("_attachments").path(AttachmentBodies.NAME);
    if (!attachment.isObject()) {
      return "document " + doc.path("_id").asText() + " has no attachment " + AttachmentBodies.NAME;
    }
    long length = attachment.path("length").asLong(-1);
    String digest = attachment.path("digest").asText("");
    if (length != source.length()) {
      return "length " + length + " (expected " + source.length() + ")";
    }
    if (!digest.equals(source.digest())) {
      return "digest " + digest + " (expected " + source.digest() + ")";
    }
    return INTACT;
  }

  private static JsonNode parse(byte[] body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node == null || node.isMissingNode() ? null : node;
    } catch (IOException e) {
      return null;
    }
  }
}
