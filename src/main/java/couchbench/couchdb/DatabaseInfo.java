package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.OptionalLong;

/**
 * What {@code GET /db} says about a database. The sizes are CouchDB 2+'s {@code sizes} object;
 * pouchdb-server has none of them but a {@code disk_size} (CouchDB 1's name), so each is optional.
 *
 * @param docCount live documents, as the server counts them
 * @param fileSize {@code sizes.file}: bytes of the database file on disk
 * @param activeSize {@code sizes.active}: bytes of live data in that file
 * @param externalSize {@code sizes.external}: uncompressed bytes of the live documents
 * @param diskSize {@code disk_size}: bytes on disk, as pouchdb-server and CouchDB 1 report them
 */
public record DatabaseInfo(
    long docCount, OptionalLong fileSize, OptionalLong activeSize, OptionalLong externalSize, OptionalLong diskSize) {

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
    JsonNode sizes = node.path("sizes");
    return new DatabaseInfo(node.path("doc_count").asLong(), number(sizes.path("file")),
        number(sizes.path("active")), number(sizes.path("external")), number(node.path("disk_size")));
  }

  private static OptionalLong number(JsonNode node) {
    return node.isIntegralNumber() ? OptionalLong.of(node.asLong()) : OptionalLong.empty();
  }
}
