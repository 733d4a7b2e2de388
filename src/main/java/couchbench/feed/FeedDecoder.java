package couchbench.feed;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.MessageToMessageDecoder;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Turns the HTTP objects of _changes responses (after Netty's HttpClientCodec) into {@link FeedEvent}s, one response
 * after another on a connection. A state machine: {@link State#HEAD} waits for a response's head; a 200 goes to
 * {@link State#LINES} for a feed that streams (each line a row or a heartbeat; for eventsource, lines make events)
 * or {@link State#POLL} for a poll (the body read whole, then parsed); any other status goes to
 * {@link State#REFUSED}, which keeps the body's start for the message. The response's last content returns to HEAD.
 */
public final class FeedDecoder extends MessageToMessageDecoder<HttpObject> {

  /** The longest line, or poll body, it reads: a row with a large include_docs document still fits. */
  static final int MAX_BYTES = 64 * 1024 * 1024;

  /** What is kept of a refusal's body for its message. */
  private static final int REFUSAL_BYTES = 2048;

  /** Where in a response the decoder is. */
  enum State {
    /** Before a response's head. */
    HEAD,
    /** In a streaming feed's body: bytes up to the next line end are a line. */
    LINES,
    /** In a poll's body: kept whole until its end. */
    POLL,
    /** In a refusal's body: its start kept for the message. */
    REFUSED
  }

  private final FeedKind kind;
  private final ByteBuf pending = Unpooled.buffer();
  private State state = State.HEAD;
  private int status;
  private boolean ended;
  // An eventsource event being read: its "event:" type and "data:" lines.
  private String eventType;
  private ByteArrayOutputStream eventData;

  /** @param kind the feed whose responses it reads */
  public FeedDecoder(FeedKind kind) {
    this.kind = kind;
  }

  /** @return where in a response it is, for tests */
  State state() {
    return state;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, HttpObject message, List<Object> out) throws IOException {
    if (message.decoderResult().isFailure()) {
      throw new DecoderException("not an HTTP response: " + message.decoderResult().cause().getMessage());
    }
    if (message instanceof HttpResponse response) {
      head(response, out);
    }
    if (message instanceof HttpContent content) {
      body(content.content(), out);
      if (message instanceof LastHttpContent) {
        end(out);
      }
    }
  }

  private void head(HttpResponse response, List<Object> out) {
    if (state != State.HEAD) {
      throw new DecoderException("a response's head inside another response's body");
    }
    status = response.status().code();
    String contentType = response.headers().get(HttpHeaderNames.CONTENT_TYPE, "");
    out.add(new FeedEvent.Opened(status, contentType, HttpUtil.isKeepAlive(response)));
    state = status != 200 ? State.REFUSED : kind.streams() ? State.LINES : State.POLL;
    pending.clear();
    ended = false;
    eventType = null;
    eventData = null;
  }

  private void body(ByteBuf content, List<Object> out) throws IOException {
    switch (state) {
      case LINES -> {
        while (content.isReadable()) {
          int end = content.indexOf(content.readerIndex(), content.writerIndex(), (byte) '\n');
          if (end < 0) {
            keep(content, content.readableBytes());
            return;
          }
          keep(content, end - content.readerIndex());
          content.skipBytes(1);
          line(out);
        }
      }
      case POLL -> keep(content, content.readableBytes());
      case REFUSED -> {
        int room = REFUSAL_BYTES - pending.readableBytes();
        pending.writeBytes(content, Math.min(room, content.readableBytes()));
        content.skipBytes(content.readableBytes());
      }
      case HEAD -> {
        if (content.isReadable()) {
          throw new DecoderException("body bytes before a response's head");
        }
      }
    }
  }

  private void end(List<Object> out) throws IOException {
    switch (state) {
      case LINES -> {
        if (pending.isReadable()) {
          line(out);
        }
        if (!ended) {
          out.add(new FeedEvent.Ended(null));
        }
      }
      case POLL -> ChangeRows.poll(new ByteBufInputStream(pending), out);
      case REFUSED -> out.add(new FeedEvent.Refused(status, pending.toString(StandardCharsets.UTF_8)));
      case HEAD -> {
        // a stray empty last content: nothing was open
      }
    }
    pending.clear();
    state = State.HEAD;
  }

  private void keep(ByteBuf content, int length) {
    if (pending.readableBytes() + length > MAX_BYTES) {
      throw new DecoderException("a " + (state == State.POLL ? "poll's reply" : "line") + " of over " + MAX_BYTES
          + " bytes");
    }
    pending.writeBytes(content, length);
  }

  /** The line in pending, its line end taken off. */
  private void line(List<Object> out) throws IOException {
    int length = pending.readableBytes();
    if (length > 0 && pending.getByte(pending.writerIndex() - 1) == '\r') {
      length--;
    }
    byte[] line = new byte[length];
    pending.readBytes(line);
    pending.clear();
    if (kind == FeedKind.EVENTSOURCE) {
      eventLine(line, out);
    } else if (line.length == 0) {
      out.add(new FeedEvent.Heartbeat());
    } else {
      add(ChangeRows.line(line), out);
    }
  }

  /** A line of server-sent events: a field, or the blank line that ends an event. */
  private void eventLine(byte[] line, List<Object> out) throws IOException {
    if (line.length == 0) {
      if ("heartbeat".equals(eventType)) {
        out.add(new FeedEvent.Heartbeat());
      } else if (eventData != null && eventData.size() > 0) {
        add(ChangeRows.line(eventData.toByteArray()), out);
      }
      eventType = null;
      eventData = null;
      return;
    }
    String text = new String(line, StandardCharsets.UTF_8);
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + (text.startsWith(" ", colon + 1) ? 2 : 1));
    if (field.equals("event")) {
      eventType = value;
    } else if (field.equals("data")) {
      if (eventData == null) {
        eventData = new ByteArrayOutputStream();
      } else {
        eventData.write('\n');
      }
      eventData.writeBytes(value.getBytes(StandardCharsets.UTF_8));
    }
    // id: repeats the row's seq, and a comment (":...") or retry: says nothing a listener needs
  }

  private void add(FeedEvent event, List<Object> out) {
    ended |= event instanceof FeedEvent.Ended;
    out.add(event);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    pending.release();
  }
}
