package couchbench.couchdb;

import couchbench.data.RandomText;
import java.nio.charset.StandardCharsets;

/**
 * Request bodies for document writes: the seed's empty document {@code {}}, or one holding
 * {@code text} of random characters, alone or as a {@code _bulk_docs} batch. The server assigns ids.
 */
public final class DocBodies {

  private DocBodies() {}

  /**
   * One document: {@code {}} when {@code textSize} is 0, else {@code {"text":"..."}}.
   *
   * @param textSize characters of random text, 0 for an empty document
   * @return the JSON bytes
   */
  public static byte[] document(int textSize) {
    return json(textSize).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * A {@code _bulk_docs} body of {@code batchSize} documents like {@link #document(int)}.
   *
   * @param batchSize documents in the batch, 1 or more
   * @param textSize characters of random text per document, 0 for empty documents
   * @return the JSON bytes
   */
  public static byte[] bulk(int batchSize, int textSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize: " + batchSize + " (expected: >= 1)");
    }
    StringBuilder body = new StringBuilder("{\"docs\":[");
    for (int i = 0; i < batchSize; i++) {
      body.append(i == 0 ? "" : ",").append(json(textSize));
    }
    return body.append("]}").toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String json(int textSize) {
    return textSize == 0 ? "{}" : "{\"text\":\"" + RandomText.ofLength(textSize) + "\"}";
  }
}
