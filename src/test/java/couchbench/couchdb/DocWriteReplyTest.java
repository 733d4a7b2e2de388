package couchbench.couchdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DocWriteReplyTest {

  private static DocWriteReply parse(String body, int expected) {
    return DocWriteReply.parse(body.getBytes(StandardCharsets.UTF_8), expected);
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
