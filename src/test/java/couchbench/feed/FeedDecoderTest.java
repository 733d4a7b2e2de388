package couchbench.feed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpResponseDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The decoder fed real replies' bytes (as CouchDB 3.5 and pouchdb-server send them), one byte at a time. */
class FeedDecoderTest {

  private static final String SEQ1 = "1-g1AAAACHeJzLYWBgYMpgTmHgKTF0MDQy1zMAQsMckGgiQ1L9____szKYExlzgQLs5onmiclJyWhqsWvOY";
  private static final String SEQ3 = "3-g1AAAACHeJzLYWBgYMpgTmHgKTF0MDQy1zMAQsMckGgiQ1L9____szKYExlzgQLs5onmiclJyWhqsWvOZ";
  private static final String REV = "1-0785e9eb543380151003dc452c3a001a";

  @Test
  void shouldReadAContinuousFeedsRowsHeartbeatsRowsWithoutASeqAndItsLastLine() {
    String body = "\n{\"seq\":\"" + SEQ1 + "\",\"id\":\"w0-1\",\"changes\":[{\"rev\":\"" + REV + "\"}]}\n"
        + "\n{\"seq\":null,\"id\":\"w0-2\",\"changes\":[{\"rev\":\"" + REV + "\"}],\"deleted\":true}\r\n"
        + "{\"seq\":\"" + SEQ3 + "\",\"id\":\"w0-3\",\"changes\":[{\"rev\":\"2-a\"},{\"rev\":\"1-b\"}],"
        + "\"doc\":{\"_id\":\"w0-3\",\"n\":{\"deep\":[1,2,{\"x\":\"}\"}]}}}\n"
        + "{\"last_seq\":\"" + SEQ3 + "\",\"pending\":0}\n";

    List<Object> events = byteByByte(FeedKind.CONTINUOUS, chunked(body));

    assertEquals(List.of(new FeedEvent.Opened(200, "application/json", true), new FeedEvent.Heartbeat(),
        row(SEQ1, "w0-1", REV, false, false), new FeedEvent.Heartbeat(), row(null, "w0-2", REV, true, false),
        row(SEQ3, "w0-3", "2-a", false, true), new FeedEvent.Ended(SEQ3)), events);
  }

  @Test
  void shouldEndAStreamTheServerClosedWithoutALastLine() {
    List<Object> events = byteByByte(FeedKind.CONTINUOUS, chunked("{\"seq\":\"" + SEQ1 + "\",\"id\":\"a\","
        + "\"changes\":[{\"rev\":\"" + REV + "\"}]}\n"));

    assertEquals(List.of(new FeedEvent.Opened(200, "application/json", true), row(SEQ1, "a", REV, false, false),
        new FeedEvent.Ended(null)), events);
  }

  @Test
  void shouldReadServerSentEventsAndTheirHeartbeats() {
    String body = "\nevent: heartbeat\ndata: \n\n"
        + "data: {\"seq\":\"" + SEQ1 + "\",\"id\":\"w0-1\",\"changes\":[{\"rev\":\"" + REV + "\"}]}\n"
        + "id: \"" + SEQ1 + "\"\n\n"
        + ": a comment\n"
        + "data:{\"seq\":\"" + SEQ3 + "\",\"id\":\"w0-3\",\n"
        + "data: \"changes\":[{\"rev\":\"" + REV + "\"}]}\n\n";

    List<Object> events = byteByByte(FeedKind.EVENTSOURCE, response("200 OK", "text/event-stream", body, true));

    assertEquals(List.of(new FeedEvent.Opened(200, "text/event-stream", true), new FeedEvent.Heartbeat(),
        row(SEQ1, "w0-1", REV, false, false), row(SEQ3, "w0-3", REV, false, false), new FeedEvent.Ended(null)),
        events);
  }

  @Test
  void shouldReadPollsOneAfterAnotherOnAConnectionWithNumbersForSeqsAsPouchDbServerSendsThem() {
    String first = "{\"results\":[\n{\"id\":\"w1-1\",\"changes\":[{\"rev\":\"" + REV + "\"}],\"doc\":{\"_id\":"
        + "\"w1-1\"},\"seq\":7},\n{\"id\":\"w1-2\",\"changes\":[{\"rev\":\"" + REV + "\"}],\"seq\":8}\n],\n"
        + "\"last_seq\":8}\n";
    String second = "{\"results\":[],\"last_seq\":8,\"pending\":0}\n";

    List<Object> events = byteByByte(FeedKind.LONGPOLL, response("200 OK", "application/json", first, false)
        + response("200 OK", "application/json", second, true));

    assertEquals(List.of(new FeedEvent.Opened(200, "application/json", true), row("7", "w1-1", REV, false, true),
        row("8", "w1-2", REV, false, false), new FeedEvent.Ended("8"), new FeedEvent.Opened(200, "application/json", true),
        new FeedEvent.Ended("8")), events);
  }

  @Test
  void shouldReadARefusalWholeForItsMessage() {
    String body = "{\"error\":\"bad_request\",\"reason\":\"Selector must be specified in POST payload\"}\n";

    List<Object> events = byteByByte(FeedKind.CONTINUOUS, response("400 Bad Request", "application/json", body,
        false));

    assertEquals(List.of(new FeedEvent.Opened(400, "application/json", true), new FeedEvent.Refused(400, body)), events);
  }

  @Test
  void shouldRefuseALineThatIsNoRow() {
    EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseDecoder(), new FeedDecoder(FeedKind.CONTINUOUS));
    byte[] bytes = chunked("{\"seq\":\"1\",\"changes\":[]}\n").getBytes(StandardCharsets.UTF_8);

    DecoderException refused = assertThrows(DecoderException.class, () -> channel.writeInbound(
        Unpooled.wrappedBuffer(bytes)));
    assertTrue(refused.getMessage().contains("a row without an id"), refused.getMessage());
  }

  private static FeedEvent.Row row(String seq, String id, String rev, boolean deleted, boolean withDoc) {
    return new FeedEvent.Row(new Change(seq, id, rev, deleted, withDoc));
  }

  private static List<Object> byteByByte(FeedKind kind, String response) {
    EmbeddedChannel channel = new EmbeddedChannel(new HttpResponseDecoder(), new FeedDecoder(kind));
    for (byte b : response.getBytes(StandardCharsets.UTF_8)) {
      channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
    }
    List<Object> events = new ArrayList<>();
    for (Object event = channel.readInbound(); event != null; event = channel.readInbound()) {
      events.add(event);
    }
    assertEquals(FeedDecoder.State.HEAD, ((FeedDecoder) channel.pipeline().last()).state(), "ready for the next");
    channel.finishAndReleaseAll();
    return events;
  }

  /** A 200 whose body comes in chunks of a few bytes, as CouchDB sends a continuous feed. */
  private static String chunked(String body) {
    return response("200 OK", "application/json", body, true);
  }

  private static String response(String status, String contentType, String body, boolean chunked) {
    StringBuilder response = new StringBuilder("HTTP/1.1 " + status + "\r\nContent-Type: " + contentType + "\r\n");
    if (!chunked) {
      return response.append("Content-Length: ").append(body.getBytes(StandardCharsets.UTF_8).length)
          .append("\r\n\r\n").append(body).toString();
    }
    response.append("Transfer-Encoding: chunked\r\n\r\n");
    for (int i = 0; i < body.length(); i += 37) {
      String chunk = body.substring(i, Math.min(body.length(), i + 37));
      response.append(Integer.toHexString(chunk.getBytes(StandardCharsets.UTF_8).length)).append("\r\n")
          .append(chunk).append("\r\n");
    }
    return response.append("0\r\n\r\n").toString();
  }
}
