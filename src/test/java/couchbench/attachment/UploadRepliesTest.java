package couchbench.attachment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class UploadRepliesTest {

  private static final AttachmentFile SOURCE = new AttachmentFile(Path.of("1e1.txt"), 11, "XrY7u+Ae7tCTyyK7j1rNww==");

  @Test
  void shouldCallAnUploadStoredOnlyWhenEveryDocumentWas() {
    assertEquals(UploadReplies.STORED, UploadReplies.upload(201, bytes("{\"ok\":true,\"id\":\"a\",\"rev\":\"2-x\"}"), 1));
    assertEquals(UploadReplies.STORED, UploadReplies.upload(201, bytes("[{\"ok\":true},{\"ok\":true}]"), 2));
    assertEquals("rejected: conflict", UploadReplies.upload(201, bytes("[{\"ok\":true},{\"error\":\"conflict\"}]"), 2));
  }

  @Test
  void shouldNameARefusalByStatusAndCouchDbsReason() {
    assertEquals("413 too_large: the request entity is too large",
        UploadReplies.upload(413, bytes("{\"error\":\"too_large\",\"reason\":\"the request entity is too large\"}"), 1));
    assertEquals("413 <html>Request Entity Too Large</html>",
        UploadReplies.upload(413, bytes("<html>Request Entity Too Large</html>"), 1));
  }

  @Test
  void shouldFindTheAttachmentIntactOnlyWithTheSourcesLengthAndDigest() {
    assertEquals(UploadReplies.INTACT, UploadReplies.document(doc(11, "md5-XrY7u+Ae7tCTyyK7j1rNww=="), SOURCE));
    assertEquals("length 10 (expected 11)", UploadReplies.document(doc(10, "md5-XrY7u+Ae7tCTyyK7j1rNww=="), SOURCE));
    assertEquals("digest md5-AAAA (expected md5-XrY7u+Ae7tCTyyK7j1rNww==)",
        UploadReplies.document(doc(11, "md5-AAAA"), SOURCE));
    assertEquals("document d has no attachment att", UploadReplies.document(bytes("{\"_id\":\"d\"}"), SOURCE));
  }

  @Test
  void shouldCheckEveryDocumentOfABulkUpload() {
    String intact = "{\"id\":\"a\",\"doc\":" + new String(doc(11, "md5-XrY7u+Ae7tCTyyK7j1rNww=="), StandardCharsets.UTF_8) + "}";
    String missing = "{\"key\":\"b\",\"error\":\"not_found\"}";

    assertEquals(UploadReplies.INTACT, UploadReplies.documents(rows(intact, intact), SOURCE, 2));
    assertEquals("document b: not_found", UploadReplies.documents(rows(intact, missing), SOURCE, 2));
    assertEquals("1 documents read back (expected 2)", UploadReplies.documents(rows(intact), SOURCE, 2));
    assertEquals("{\"keys\":[\"a\",\"b\"]}", UploadReplies.keys(List.of("a", "b")));
  }

  private static byte[] doc(long length, String digest) {
    return bytes("{\"_id\":\"d\",\"_attachments\":{\"att\":{\"content_type\":\"application/octet-stream\","
        + "\"length\":" + length + ",\"digest\":\"" + digest + "\",\"stub\":true}}}");
  }

  private static byte[] rows(String... rows) {
    return bytes("{\"total_rows\":9,\"rows\":[" + String.join(",", rows) + "]}");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
