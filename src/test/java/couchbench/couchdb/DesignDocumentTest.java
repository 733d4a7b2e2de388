package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DesignDocumentTest {

  private static final DesignDocument TODO =
      new DesignDocument("todo", "list", "function(doc) { emit(doc._id, doc); }");

  @Test
  void shouldHoldOneJavaScriptMapView() throws Exception {
    JsonNode doc = new ObjectMapper().readTree(TODO.json(Optional.empty()));

    assertEquals("_design/todo", doc.path("_id").asText());
    assertEquals("javascript", doc.path("language").asText());
    assertEquals(TODO.map(), doc.path("views").path("list").path("map").asText());
    assertEquals(false, doc.has("_rev"));
    assertEquals("/todo/_design/todo/_view/list", TODO.queryPath("todo"));
  }

  @Test
  void shouldCarryTheRevisionItReplaces() throws Exception {
    JsonNode doc = new ObjectMapper().readTree(TODO.json(Optional.of("1-abc")));

    assertEquals("1-abc", doc.path("_rev").asText());
  }
}
