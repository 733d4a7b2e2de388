package couchbench.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import site.ycsb.Utils;

class RecordContentTest {

  private final RecordContent content = new RecordContent(3, 20);

  @Test
  void shouldNameRecordsAsYcsbDoesWithItsHashedInsertOrder() {
    for (long keyNumber : new long[] {0, 1, 999, 123_456_789}) {
      assertEquals("user" + Utils.fnvhash64(keyNumber), RecordContent.key(keyNumber));
    }
  }

  @Test
  void shouldFindAMemcacheValueIntactAtItsVersionAndStaleBelowTheAcknowledgedOne() {
    String value = content.value("user1", 4);

    assertEquals(RecordContent.INTACT, content.valueVerdict(value, "user1", 4));
    assertEquals("stale: version 4 read after version 5 was acknowledged", content.valueVerdict(value, "user1", 5));
    assertEquals("fields differ from what version 4 holds", content.valueVerdict(value, "user2", 1));
    assertEquals("no version", content.valueVerdict("garbage", "user1", 1));
    assertEquals(4, RecordContent.versionOf(value));
  }

  @Test
  void shouldFindACouchDbDocumentAtItsRevisionsGeneration() throws Exception {
    ObjectNode doc = (ObjectNode) new ObjectMapper().readTree(content.document("user1", 3, null));
    doc.put("_id", "user1").put("_rev", "3-abc");

    assertEquals(RecordContent.INTACT, content.documentVerdict(doc, "user1", 2));
    assertEquals("stale: version 3 read after version 4 was acknowledged", content.documentVerdict(doc, "user1", 4));
    assertEquals("another document", content.documentVerdict(doc, "user2", 1));
    doc.put("_rev", "2-abc");
    assertEquals("field f0 differs from what version 2 holds", content.documentVerdict(doc, "user1", 1));
    assertEquals(7, RecordContent.revGeneration("\"7-917fa2\""));
    assertEquals(-1, RecordContent.revGeneration("W/\"38-Ryx\""));
  }

  @Test
  void shouldFindARecordOfOneKeyPerFieldTornWhenItsFieldsAreOfTwoVersions() {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      values.put("user1:" + i, content.fieldValue("user1", i, 2));
    }
    assertEquals(RecordContent.INTACT, content.fieldsVerdict(values, "user1", 2));

    values.put("user1:2", content.fieldValue("user1", 2, 3));
    assertEquals("torn: fields of versions 2 and 3", content.fieldsVerdict(values, "user1", 1));
    values.remove("user1:1");
    assertEquals("field 1 not found", content.fieldsVerdict(values, "user1", 1));
  }
}
