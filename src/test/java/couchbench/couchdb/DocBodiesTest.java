package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DocBodiesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldWriteTheSeedsEmptyDocuments() {
    assertEquals("{}", new String(DocBodies.document(0), StandardCharsets.UTF_8));
    assertEquals("{\"docs\":[{},{},{}]}", new String(DocBodies.bulk(3, 0), StandardCharsets.UTF_8));
  }

  @Test
  void shouldWriteValidJsonWithTextOfTheAskedSize() throws Exception {
    JsonNode bulk = JSON.readTree(DocBodies.bulk(64, 100));
    assertEquals(64, bulk.path("docs").size());
    for (JsonNode doc : bulk.path("docs")) {
      assertEquals(100, doc.path("text").asText().length());
      assertTrue(doc.path("_id").isMissingNode(), "the server assigns ids");
    }
    assertEquals(100, JSON.readTree(DocBodies.document(100)).path("text").asText().length());
  }

  @Test
  void shouldRefuseAnEmptyBatch() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DocBodies.bulk(0, 0));
    assertEquals("batchSize: 0 (expected: >= 1)", e.getMessage());
  }
}
