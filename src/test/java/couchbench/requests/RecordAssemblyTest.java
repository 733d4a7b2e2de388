package couchbench.requests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.data.KeyFile;
import couchbench.data.RandomText;
import couchbench.data.ValueSizes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Records of F fields: the same text under the same key in both systems, and reads that tell what is wrong. */
class RecordAssemblyTest {

  @TempDir
  Path folder;

  @Test
  void shouldReadBackACouchRecordWrittenWithAllItsFieldsIntact() {
    String written = CouchRequests.record("7", 3, ValueSizes.of(20));
    String read = "{\"_id\":\"7\",\"_rev\":\"1-a\"," + written.substring(1);

    assertEquals(RecordFields.INTACT, couchVerdict(read, "7", 3));
    assertTrue(written.contains("\"f2\":\"" + RandomText.forKey("7:2", 20) + "\""), written);
  }

  @Test
  void shouldNameTheFieldOfACouchRecordThatIsWrongOrMissing() {
    String wrongField = "{\"_id\":\"7\",\"f0\":\"" + RandomText.forKey("7:0", 20) + "\",\"f1\":\"x\"}";
    assertEquals("field f1: text differs from what was stored", couchVerdict(wrongField, "7", 2));
    assertEquals("field f1: no text", couchVerdict("{\"_id\":\"7\",\"f0\":\"" + RandomText.forKey("7:0", 20) + "\"}", "7", 2));
    assertEquals("another document", couchVerdict(CouchRequests.record("8", 2, ValueSizes.of(20)).replace("{", "{\"_id\":\"8\","), "7", 2));
  }

  @Test
  void shouldJudgeAMultiGetByEveryValueOfTheRecord() {
    Map<String, String> values = new LinkedHashMap<>();
    for (int i = 0; i < 3; i++) {
      values.put("r:" + i, RandomText.forKey("r:" + i, 10));
    }
    assertEquals(RecordFields.INTACT, MemcacheRequests.recordVerdict(values, "r", 3, ValueSizes.of(10)));

    values.put("r:1", "not it");
    assertEquals("field 1: text differs from what was stored", MemcacheRequests.recordVerdict(values, "r", 3, ValueSizes.of(10)));
    values.remove("r:1");
    assertEquals("field 1 not found", MemcacheRequests.recordVerdict(values, "r", 3, ValueSizes.of(10)));
  }

  @Test
  void shouldAcknowledgeAMemcacheRecordOnlyWhenAllItsFieldsWereStored() throws Exception {
    KeyFile records = KeyFile.at(folder.resolve("records.csv"));
    StoredFields fields = new StoredFields(3, records);

    fields.stored("whole");
    fields.stored("partial");
    fields.stored("whole");
    fields.stored("whole");

    assertEquals(4, fields.storedCount());
    fields.ended("partial");
    fields.stored("partial");
    fields.stored("partial");
    assertEquals(List.of("key", "whole"), Files.readAllLines(records.write()), "an ended record starts again from 0");
  }

  private static String couchVerdict(String body, String id, int fields) {
    return CouchRequests.recordVerdict(body.getBytes(StandardCharsets.UTF_8), id, fields);
  }
}
