package couchbench.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.data.ValueSizes;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class CouchRequestsTest {

  private static String verdict(String body, String id) {
    return CouchRequests.verdict(body.getBytes(StandardCharsets.UTF_8), id);
  }

  @Test
  void shouldFindTheDocumentWrittenUnderAnIdIntact() {
    String written = CouchRequests.document("42", ValueSizes.of(100));
    String read = "{\"_id\":\"42\",\"_rev\":\"1-a\"," + written.substring(1);
    assertEquals(CouchRequests.INTACT, verdict(read, "42"));
  }

  @Test
  void shouldNameWhatIsWrongWithADocumentThatIsNotTheOneWritten() {
    assertEquals("text differs from what was stored", verdict("{\"_id\":\"42\",\"text\":\"abc\"}", "42"));
    assertEquals("another document", verdict("{\"_id\":\"41\",\"text\":\"abc\"}", "42"));
    assertEquals("no text", verdict("{\"_id\":\"42\"}", "42"));
    assertEquals("reply is not JSON", verdict("{\"_id\":", "42"));
  }
}
