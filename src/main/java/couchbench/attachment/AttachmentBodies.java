package couchbench.attachment;

import java.nio.charset.StandardCharsets;

/**
 * What the methods send besides the attachment's bytes: the JSON around an inline base64
 * attachment, the {@code _bulk_docs} frame, and the JSON part of a multipart upload. Every document
 * holds one attachment named {@link #NAME}, typed {@link #CONTENT_TYPE} as in the seed: CouchDB
 * compresses text types before storing them, which would change both the work timed and the digest.
 */
public final class AttachmentBodies {

  /** The attachment's name in every document. */
  public static final String NAME = "att";

  /** The attachment's content type. */
  public static final String CONTENT_TYPE = "application/octet-stream";

  /**
   * The multipart boundary. It holds underscores, which the generated text never does, so it
   * cannot occur inside an attachment.
   */
  public static final String BOUNDARY = "couchbench_attachment_boundary";

  /** The Content-Type header of a multipart upload. */
  public static final String MULTIPART_TYPE = "multipart/related; boundary=" + BOUNDARY;

  private static final String INLINE_START =
      "{\"_attachments\":{\"" + NAME + "\":{\"content_type\":\"" + CONTENT_TYPE + "\",\"data\":\"";
  private static final String INLINE_END = "\"}}}";

  private AttachmentBodies() {}

  /** @return the bytes of a document with an inline attachment, up to the base64 data */
  static byte[] inlineStart() {
    return ascii(INLINE_START);
  }

  /** @return the bytes that close a document with an inline attachment, after the base64 data */
  static byte[] inlineEnd() {
    return ascii(INLINE_END);
  }

  /** @return the start of a {@code _bulk_docs} body, before the first document */
  static byte[] bulkStart() {
    return ascii("{\"docs\":[");
  }

  /** @return what goes between two documents of a {@code _bulk_docs} body */
  static byte[] bulkSeparator() {
    return ascii(",");
  }

  /** @return the end of a {@code _bulk_docs} body */
  static byte[] bulkEnd() {
    return ascii("]}");
  }

  /**
   * The JSON part of a multipart upload, as CouchDB documents it: the attachment {@code follows}
   * in the next part, with its length. The id is repeated from the URL, where CouchDB takes it
   * from; pouchdb-server needs it in the JSON.
   *
   * @param docId the document id
   * @param length the attachment's length in bytes
   * @return the JSON
   */
  public static String multipartJson(String docId, long length) {
    return "{\"_id\":\"" + docId + "\",\"_attachments\":{\"" + NAME + "\":{\"follows\":true,\"content_type\":\""
        + CONTENT_TYPE + "\",\"length\":" + length + "}}}";
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
