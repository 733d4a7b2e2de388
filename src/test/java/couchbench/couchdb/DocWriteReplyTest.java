package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DocWriteReplyTest {

  /** The reply read from one array and from a stream of pieces, as Gatling's chunks arrive: both must agree. */
  private static DocWriteReply parse(String body, int expected) {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    DocWriteReply fromArray = DocWriteReply.parse(bytes, expected);
    assertEquals(fromArray, DocWriteReply.parse(inPieces(bytes, 3), expected), "read from a stream of pieces");
    return fromArray;
  }

  /** The bytes as a stream of pieces of {@code size} bytes, each piece a stream of its own. */
  private static InputStream inPieces(byte[] bytes, int size) {
    List<InputStream> pieces = new ArrayList<>();
    for (int from = 0; from < bytes.length; from += size) {
      pieces.add(new ByteArrayInputStream(Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + size))));
    }
    return new SequenceInputStream(Collections.enumeration(pieces));
  }

  @Test
  void shouldReadALargeReplyArrivingInPiecesAsOneArray() {
    StringBuilder reply = new StringBuilder("[");
    for (int i = 0; i < 1024; i++) {
      reply.append(i == 0 ? "" : ",").append("{\"ok\":true,\"id\":\"").append("d".repeat(32))
          .append("\",\"rev\":\"1-").append("f".repeat(32)).append("\"}");
    }
    byte[] bytes = reply.append("]").toString().getBytes(StandardCharsets.UTF_8);
    for (int size : new int[] {1, 1000, 16 * 1024}) {
      DocWriteReply read = DocWriteReply.parse(inPieces(bytes, size), 1024);
      assertEquals(1024, read.stored(), "pieces of " + size);
      assertEquals(DocWriteReply.ALL_STORED, read.verdict(), "pieces of " + size);
    }
  }

  @Test
  void shouldCountEveryStoredDocumentOfABulkReply() {
    DocWriteReply reply =
        parse("[{\"ok\":true,\"id\":\"a\",\"rev\":\"1-x\"},{\"ok\":true,\"id\":\"b\",\"rev\":\"1-y\"}]", 2);
    assertEquals(2, reply.stored());
    assertEquals(DocWriteReply.ALL_STORED, reply.verdict());
  }

  @Test
  void shouldGroupDocumentErrorsByKindWithoutIds() {
    DocWriteReply reply =
        parse("[{\"ok\":true,\"id\":\"a\"},{\"id\":\"x\",\"error\":\"conflict\",\"reason\":\"Document update conflict\"},"
            + "{\"id\":\"y\",\"error\":\"conflict\"},{\"id\":\"z\",\"error\":\"forbidden\"}]", 4);
    assertEquals(1, reply.stored());
    assertEquals(Set.of("rejected: conflict", "rejected: forbidden"), reply.problems());
    assertEquals("rejected: conflict, rejected: forbidden", reply.verdict());
  }

  @Test
  void shouldFailAReplyWithFewerResultsThanDocuments() {
    DocWriteReply reply = parse("[{\"ok\":true,\"id\":\"a\"}]", 3);
    assertEquals(1, reply.stored());
    assertEquals("reply has fewer results than documents", reply.verdict());
  }

  @Test
  void shouldFailAReplyWithMoreResultsThanDocuments() {
    assertEquals("reply has more results than documents",
        parse("[{\"ok\":true},{\"ok\":true}]", 1).verdict());
  }

  @Test
  void shouldAcceptTheSingleDocumentReplyOfPostDb() {
    DocWriteReply reply = parse("{\"ok\":true,\"id\":\"a\",\"rev\":\"1-x\"}", 1);
    assertEquals(1, reply.stored());
    assertEquals(DocWriteReply.ALL_STORED, reply.verdict());
  }

  @Test
  void shouldNameTheErrorOfAWholeRequestRejection() {
    assertEquals("request rejected: not_found",
        parse("{\"error\":\"not_found\",\"reason\":\"Database does not exist.\"}", 5).verdict());
  }

  @Test
  void shouldFailTruncatedOrForeignReplies() {
    assertEquals("reply is not JSON", parse("[{\"ok\":true,\"id\":", 1).verdict());
    assertEquals("empty reply", parse("", 1).verdict());
    assertEquals("reply is not a list of document results", parse("{\"ok\":true}", 2).verdict());
    assertEquals(0, parse("<html>", 1).stored());
  }

  @Test
  void shouldFlagResultsThatAreNeitherOkNorError() {
    assertEquals("result without ok or error", parse("[{\"id\":\"a\"}]", 1).verdict());
  }
}
