package couchbench.attachment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.attachment.AttachmentData.Prepared;
import couchbench.attachment.AttachmentData.SizeFiles;
import couchbench.startup.Settings;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AttachmentDataTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path folder;

  @Test
  void shouldWriteEachSizeAsTextWithItsChecksum() throws Exception {
    Prepared prepared = AttachmentData.prepare(plan(folder, 4));

    assertEquals(List.of(1, 2, 3, 4), prepared.sizes().stream().map(SizeFiles::exponent).toList());
    for (SizeFiles size : prepared.sizes()) {
      byte[] bytes = Files.readAllBytes(size.attachment().path());
      assertEquals(AttachmentPlan.size(size.exponent()), bytes.length);
      assertEquals(bytes.length, size.attachment().length());
      assertTrue(new String(bytes, StandardCharsets.US_ASCII).matches("[A-Za-z0-9 ]*"), "text like the seed's");
      assertEquals("md5-" + md5(bytes), size.attachment().digest(), "CouchDB's digest form");
    }
    assertEquals(0, prepared.reused());
    assertEquals(4 * 3, prepared.generated().size());
  }

  @Test
  void shouldHoldTheAttachmentInlineInBase64InTheBodies() throws Exception {
    SizeFiles size = AttachmentData.prepare(plan(folder, 3)).sizes().get(2);
    byte[] attachment = Files.readAllBytes(size.attachment().path());

    JsonNode inline = JSON.readTree(size.inlineBody().path().toFile());
    assertArrayEquals(attachment, decoded(inline));
    assertEquals(AttachmentBodies.CONTENT_TYPE, inline.path("_attachments").path("att").path("content_type").asText());
    JsonNode bulk = JSON.readTree(size.bulkBody().orElseThrow().path().toFile());
    assertEquals(3, bulk.path("docs").size(), "bulkDocs documents");
    for (JsonNode doc : bulk.path("docs")) {
      assertArrayEquals(attachment, decoded(doc));
      assertTrue(doc.path("_id").isMissingNode(), "the server assigns the ids: a new document each time");
    }
    assertEquals(md5(Files.readAllBytes(size.inlineBody().path())), size.inlineBody().md5Base64());
  }

  @Test
  void shouldReuseCorrectFilesAndRewriteDamagedOnes() throws Exception {
    Prepared first = AttachmentData.prepare(plan(folder, 3));
    SizeFiles size = first.sizes().get(2);
    Path text = size.attachment().path();
    // Same length, one byte changed: only the checksum can tell.
    try (RandomAccessFile file = new RandomAccessFile(text.toFile(), "rw")) {
      file.seek(500);
      file.write('_');
    }
    Files.write(size.inlineBody().path(), new byte[] {'{'});

    Prepared second = AttachmentData.prepare(plan(folder, 3));

    assertEquals(List.of("1e3.txt", "1e3.base64.json"), second.generated(),
        "the two damaged files; the bulk body was made from the same bytes and is intact");
    assertEquals(first.sizes(), second.sizes(), "the same bytes again");
    Prepared third = AttachmentData.prepare(plan(folder, 3));
    assertEquals(List.of(), third.generated());
    assertEquals(9, third.reused());
  }

  @Test
  void shouldMakeTheSameBytesOnEveryRunAndLeaveBulkOutAboveItsCap(@TempDir Path other) throws Exception {
    AttachmentPlan capped = AttachmentPlan.from(Settings.of(Map.of("maxExponent", "3", "bulkDocs", "3",
        "bulkMaxBytes", "300", "dataDir", other.toString()), Map.of()));

    List<SizeFiles> sizes = AttachmentData.prepare(capped).sizes();

    assertEquals(AttachmentData.prepare(plan(folder, 3)).sizes().get(0).attachment().md5Base64(),
        sizes.get(0).attachment().md5Base64());
    assertTrue(sizes.get(1).bulkBody().isPresent(), "3 x 10^2 = 300 bytes, within the cap");
    assertTrue(sizes.get(2).bulkBody().isEmpty());
    assertTrue(Files.notExists(other.resolve("1e3.bulk3.json")));
  }

  private static AttachmentPlan plan(Path folder, int maxExponent) {
    return AttachmentPlan.from(Settings.of(Map.of("maxExponent", String.valueOf(maxExponent), "bulkDocs", "3",
        "dataDir", folder.toString()), Map.of()));
  }

  private static byte[] decoded(JsonNode doc) {
    return Base64.getDecoder().decode(doc.path("_attachments").path("att").path("data").asText());
  }

  private static String md5(byte[] bytes) throws Exception {
    return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(bytes));
  }
}
