package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * What {@code GET /db} says about a database.
 *
 * @param docCount live documents, as the server counts them
 */
public record DatabaseInfo(long docCount) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads a {@code GET /db} reply.
   *
   * @param body the reply body
   * @return the database info
   * @throws IllegalArgumentException when the reply is not a database info object
   */
  public static DatabaseInfo parse(byte[] body) {
    JsonNode node;
    try {
      node = JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("database info is not JSON");
    }
    if (node == null || node.isMissingNode() || !node.path("doc_count").canConvertToLong()) {
      throw new IllegalArgumentException("database info has no doc_count");
    }
    return new DatabaseInfo(node.path("doc_count").asLong());
  }
}
