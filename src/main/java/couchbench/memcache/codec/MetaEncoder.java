package couchbench.memcache.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Writes {@link MetaRequest}s as meta commands: {@code <command> <key> [<datalen>] [b] [<flags>] [q] [O<opaque>]},
 * then for ms the data block. The key is written as UTF-8, or its UTF-8 bytes base64-encoded; it must have been
 * checked with {@link MemcacheKeys#metaProblem}, and the flags must be tokens without line ends: the encoder does not
 * check them again. Placed after {@link MemcacheTextEncoder} in a pipeline, it writes the meta requests and that
 * one the others.
 */
@ChannelHandler.Sharable
public final class MetaEncoder extends MessageToMessageEncoder<MetaRequest> {

  private static final MetaRequest.Command[] COMMANDS = MetaRequest.Command.values();
  /** Each command's two letters, written as bytes: no string is built per request. */
  private static final byte[][] LETTERS = new byte[COMMANDS.length][];

  static {
    for (MetaRequest.Command command : COMMANDS) {
      LETTERS[command.ordinal()] = command.letters().getBytes(StandardCharsets.US_ASCII);
    }
  }

  /** Creates an encoder; it keeps no state, so one instance may be shared by several channels. */
  public MetaEncoder() {
    super(MetaRequest.class);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, MetaRequest request, List<Object> out) {
    ByteBuf line = ctx.alloc().buffer(estimateLineBytes(request));
    try {
      writeLine(request, line);
      out.add(request.command() == MetaRequest.Command.SET
          ? MemcacheTextEncoder.withData(ctx, line, request.value()) : line);
    } catch (RuntimeException e) {
      line.release();
      throw e;
    }
  }

  /** The command line, with its CRLF; the data block of ms is the caller's. */
  static void writeLine(MetaRequest request, ByteBuf line) {
    line.writeBytes(LETTERS[request.command().ordinal()]);
    if (request.key() != null) {
      line.writeByte(' ');
      if (request.base64Key()) {
        line.writeBytes(Base64.getEncoder().encode(request.key().getBytes(StandardCharsets.UTF_8)));
      } else {
        ByteBufUtil.writeUtf8(line, request.key());
      }
    }
    if (request.command() == MetaRequest.Command.SET) {
      line.writeByte(' ');
      MemcacheTextEncoder.number(line, request.value().length);
    }
    if (request.base64Key()) {
      ByteBufUtil.writeAscii(line, " b");
    }
    if (!request.flags().isEmpty()) {
      line.writeByte(' ');
      ByteBufUtil.writeAscii(line, request.flags());
    }
    if (request.quiet()) {
      ByteBufUtil.writeAscii(line, " q");
    }
    if (request.opaque() >= 0) {
      ByteBufUtil.writeAscii(line, " O");
      MemcacheTextEncoder.number(line, request.opaque());
    }
    line.writeBytes(MemcacheTextEncoder.CRLF);
  }

  /** Enough for the line (keys at most 3 UTF-8 bytes a char, 4 in base64) and a small data block. */
  static int estimateLineBytes(MetaRequest request) {
    byte[] value = request.value();
    int data = value != null && MemcacheTextEncoder.copied(value) ? value.length + 2 : 0;
    int key = request.key() == null ? 0 : 4 * request.key().length();
    return 64 + key + request.flags().length() + data;
  }
}
