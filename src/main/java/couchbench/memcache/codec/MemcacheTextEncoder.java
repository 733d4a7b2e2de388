package couchbench.memcache.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * Writes {@link MemcacheRequest}s as memcache text-protocol commands (memcached's protocol.txt).
 *
 * <p>Numbers that the protocol defines as unsigned (flags: 32 bits; cas unique and incr/decr delta: 64 bits)
 * are written unsigned. Keys are written as UTF-8 and must have been checked with {@link MemcacheKeys}: the
 * encoder does not check them again. A large data block is not copied but wrapped, so its array must not be
 * changed until the request is written. Meta requests are left to {@link MetaEncoder}, placed after it in the
 * pipeline.
 */
@ChannelHandler.Sharable
public final class MemcacheTextEncoder extends MessageToMessageEncoder<MemcacheRequest> {

  static final byte[] CRLF = {'\r', '\n'};
  /** The storage commands' words, written as bytes: no string is built per request. */
  private static final byte[][] STORE_WORDS = new byte[MemcacheRequest.StoreCommand.values().length][];

  static {
    for (MemcacheRequest.StoreCommand command : MemcacheRequest.StoreCommand.values()) {
      STORE_WORDS[command.ordinal()] = (command.name().toLowerCase(Locale.ROOT) + " ").getBytes(StandardCharsets.US_ASCII);
    }
  }
  /** Data blocks at least this long are wrapped rather than copied into the command buffer. */
  static final int WRAP_THRESHOLD = 16 * 1024;

  /** Creates an encoder; it keeps no state, so one instance may be shared by several channels. */
  public MemcacheTextEncoder() {
    super(MemcacheRequest.class);
  }

  /** @return true for the text protocol's requests; a {@link MetaRequest} is {@link MetaEncoder}'s */
  @Override
  public boolean acceptOutboundMessage(Object msg) {
    return msg instanceof MemcacheRequest && !(msg instanceof MetaRequest);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, MemcacheRequest request, List<Object> out) {
    ByteBuf line = ctx.alloc().buffer(estimateLineBytes(request));
    boolean done = false;
    try {
      writeLine(request, line);
      if (request instanceof MemcacheRequest.Store store) {
        out.add(withData(ctx, line, store.value()));
      } else {
        out.add(line);
      }
      done = true;
    } finally {
      if (!done) {
        line.release();
      }
    }
  }

  /** @return whether a data block is copied after its line; a larger one is wrapped beside it */
  static boolean copied(byte[] data) {
    return data.length < WRAP_THRESHOLD;
  }

  /** @return the data block that follows the request's line, or null when it has none */
  static byte[] data(MemcacheRequest request) {
    return request instanceof MemcacheRequest.Store store ? store.value() : null;
  }

  /** The command line with its data block and CRLF: copied after the line when small, else wrapped beside it. */
  static Object withData(ChannelHandlerContext ctx, ByteBuf line, byte[] value) {
    if (copied(value)) {
      line.writeBytes(value).writeBytes(CRLF);
      return line;
    }
    CompositeByteBuf whole = ctx.alloc().compositeBuffer(3);
    whole.addComponents(true, line, Unpooled.wrappedBuffer(value), Unpooled.wrappedBuffer(CRLF));
    return whole;
  }

  /** The command line, with its CRLF; the data block is the caller's. */
  static void writeLine(MemcacheRequest request, ByteBuf out) {
    if (request instanceof MemcacheRequest.Store store) {
      out.writeBytes(STORE_WORDS[store.command().ordinal()]);
      ByteBufUtil.writeUtf8(out, store.key());
      number(out.writeByte(' '), Integer.toUnsignedLong(store.flags()));
      number(out.writeByte(' '), store.exptime());
      number(out.writeByte(' '), store.value().length);
      if (store.command() == MemcacheRequest.StoreCommand.CAS) {
        ascii(out, " " + Long.toUnsignedString(store.casUnique()));
      }
    } else if (request instanceof MemcacheRequest.Retrieve retrieve) {
      ascii(out, retrieve.withCas() ? "gets" : "get");
      for (String key : retrieve.keys()) {
        out.writeByte(' ');
        ByteBufUtil.writeUtf8(out, key);
      }
    } else if (request instanceof MemcacheRequest.Delete delete) {
      ascii(out, "delete ");
      ByteBufUtil.writeUtf8(out, delete.key());
    } else if (request instanceof MemcacheRequest.Arithmetic arithmetic) {
      ascii(out, arithmetic.increment() ? "incr " : "decr ");
      ByteBufUtil.writeUtf8(out, arithmetic.key());
      ascii(out, " " + Long.toUnsignedString(arithmetic.delta()));
    } else if (request instanceof MemcacheRequest.Touch touch) {
      ascii(out, "touch ");
      ByteBufUtil.writeUtf8(out, touch.key());
      ascii(out, " " + touch.exptime());
    } else if (request instanceof MemcacheRequest.Stats stats) {
      ascii(out, "stats");
      if (stats.group() != null && !stats.group().isEmpty()) {
        if (MemcacheKeys.problem(stats.group()).isPresent()) {
          // A space or line end here would add a command of its own and put the connection out of step.
          throw new IllegalArgumentException("invalid stats group");
        }
        ascii(out, " " + stats.group());
      }
    }
    if (request.noreply()) {
      ascii(out, " noreply");
    }
    out.writeBytes(CRLF);
  }

  /** A number in decimal, written digit by digit: the storage line's numbers, without a string each. */
  static void number(ByteBuf out, long value) {
    if (value < 0) {
      ascii(out, Long.toString(value)); // a negative exptime, rare: an absolute time in the past
      return;
    }
    long scale = 1;
    while (scale <= value / 10) {
      scale *= 10;
    }
    for (; scale > 0; scale /= 10) {
      out.writeByte('0' + (int) (value / scale % 10));
    }
  }

  private static ByteBuf ascii(ByteBuf out, String text) {
    ByteBufUtil.writeAscii(out, text);
    return out;
  }

  /** Enough for the command line (keys at most 3 UTF-8 bytes a char) and a small data block, so rarely a resize. */
  static int estimateLineBytes(MemcacheRequest request) {
    int keys = 0;
    for (String key : request.keys()) {
      keys += 1 + 3 * key.length();
    }
    int data = request instanceof MemcacheRequest.Store store && copied(store.value())
        ? store.value().length + CRLF.length
        : 0;
    return 96 + keys + data;
  }
}
