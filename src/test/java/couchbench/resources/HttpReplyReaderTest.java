package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class HttpReplyReaderTest {

  private static final long LATER = Long.MAX_VALUE / 2;

  @Test
  void shouldReadRepliesByTheirLengthOneAfterAnotherOnOneConnection() throws IOException {
    HttpReplyReader reader = byteByByte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n"
        + "{\"a\":1}HTTP/1.1 404 Object Not Found\r\ncontent-length: 2\r\n\r\n{}");

    HttpReplyReader.Reply first = reader.read(LATER);
    HttpReplyReader.Reply second = reader.read(LATER);

    assertEquals(200, first.status());
    assertEquals("application/json", first.contentType());
    assertEquals("{\"a\":1}", text(first));
    assertTrue(first.keepAlive());
    assertEquals(404, second.status());
    assertEquals("{}", text(second));
  }

  @Test
  void shouldJoinAChunkedBodyAndSkipItsExtensionsAndTrailers() throws IOException {
    HttpReplyReader reader = byteByByte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "4;note=x\r\n{\"a\"\r\n3\r\n:12\r\n1\r\n}\r\n0\r\nTrailer: yes\r\n\r\n"
        + "HTTP/1.1 204 No Content\r\n\r\n");

    assertEquals("{\"a\":12}", text(reader.read(LATER)));
    HttpReplyReader.Reply empty = reader.read(LATER);
    assertEquals(204, empty.status());
    assertEquals(0, empty.body().length);
  }

  @Test
  void shouldReadABodyWithoutLengthToTheConnectionsEndAndNotKeepIt() throws IOException {
    HttpReplyReader.Reply reply = byteByByte("HTTP/1.1 200 OK\r\n\r\nall of it").read(LATER);

    assertEquals("all of it", text(reply));
    assertFalse(reply.keepAlive());
  }

  @Test
  void shouldKeepAConnectionAliveAsItsVersionAndHeaderSay() throws IOException {
    assertFalse(byteByByte("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n").read(LATER)
        .keepAlive());
    assertFalse(byteByByte("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").read(LATER).keepAlive());
    assertTrue(byteByByte("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n").read(LATER)
        .keepAlive());
  }

  @Test
  void shouldNameWhatIsWrongWithAReplyThatIsNotHttp() {
    assertEquals("a reply that is not HTTP/1.x: 'SERVER_ERROR out of memory'",
        assertThrows(IOException.class, () -> byteByByte("SERVER_ERROR out of memory\r\n").read(LATER)).getMessage());
    assertEquals("a reply whose Content-Length is not a number: 'ten'", assertThrows(IOException.class,
        () -> byteByByte("HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n").read(LATER)).getMessage());
    assertEquals("a reply whose a chunk's size is not a number: 'zz'", assertThrows(IOException.class,
        () -> byteByByte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").read(LATER)).getMessage());
  }

  @Test
  void shouldSayWhenTheConnectionEndsBeforeTheReplyDoes() {
    assertEquals("the connection closed 3 bytes before the reply's end", assertThrows(IOException.class,
        () -> byteByByte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n{}").read(LATER)).getMessage());
    assertEquals("the connection closed before the reply's end", assertThrows(IOException.class,
        () -> byteByByte("").read(LATER)).getMessage());
  }

  @Test
  void shouldGiveEachReadOnlyWhatIsLeftOfTheDeadlineAndStopAtIt() {
    int[] lastTimeout = {0};
    HttpReplyReader reader = new HttpReplyReader(new ByteArrayInputStream("HTTP/1.1 200 OK\r\n".getBytes(
        StandardCharsets.US_ASCII)), millis -> lastTimeout[0] = millis);
    assertThrows(SocketTimeoutException.class, () -> reader.read(System.nanoTime() - 1));

    HttpReplyReader inTime = new HttpReplyReader(new ByteArrayInputStream("HTTP/1.1 200 OK\r\n\r\n".getBytes(
        StandardCharsets.US_ASCII)), millis -> lastTimeout[0] = millis);
    assertDoesNotThrow(() -> inTime.read(System.nanoTime() + 2_000_000_000L));
    assertTrue(lastTimeout[0] > 1_000 && lastTimeout[0] <= 2_000, "the read's timeout, ms: " + lastTimeout[0]);
  }

  private static HttpReplyReader byteByByte(String replies) {
    ByteArrayInputStream bytes = new ByteArrayInputStream(replies.getBytes(StandardCharsets.US_ASCII));
    // One byte a read, as a slow connection may give them: every state's boundary falls between two reads.
    InputStream oneAtATime = new InputStream() {
      @Override
      public int read() {
        return bytes.read();
      }

      @Override
      public int read(byte[] into, int offset, int length) {
        return length == 0 ? 0 : bytes.read(into, offset, 1);
      }
    };
    return new HttpReplyReader(oneAtATime, millis -> { });
  }

  private static String text(HttpReplyReader.Reply reply) {
    return new String(reply.body(), StandardCharsets.UTF_8);
  }
}
