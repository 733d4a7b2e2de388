package couchbench.memcache.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads memcache text-protocol replies into {@link MemcacheReply}s, one per request, in order.
 *
 * <p>It knows nothing of the requests: a bare {@code END} is an empty {@link MemcacheReply.Values}, whether it
 * answers a get or a stats request. Input that is not a reply becomes a {@link MemcacheDecoderFailure}, after
 * which all further input is skipped; a channel that closes in the middle of a reply gives a truncated one. A
 * data block is collected as it arrives, split anywhere; the part collected so far is released when the
 * channel closes.
 */
public final class MemcacheTextDecoder extends ByteToMessageDecoder {

  /** Longest reply line without its CRLF; memcached's longest are VALUE lines of about 300 bytes. */
  public static final int DEFAULT_MAX_LINE_BYTES = 8192;
  /** Largest data block: memcached stops at 1 MB by default, MemcacheDB has no limit of its own. */
  public static final int DEFAULT_MAX_VALUE_BYTES = 64 * 1024 * 1024;

  private static final Map<String, MemcacheReply.StatusWord> STATUS_WORDS = new HashMap<>();
  private static final Map<MemcacheReply.ErrorKind, String> ERROR_PREFIXES =
      new EnumMap<>(MemcacheReply.ErrorKind.class);

  static {
    for (MemcacheReply.StatusWord word : MemcacheReply.StatusWord.values()) {
      STATUS_WORDS.put(word.name(), word);
    }
    for (MemcacheReply.ErrorKind kind : MemcacheReply.ErrorKind.values()) {
      ERROR_PREFIXES.put(kind, kind.name() + " ");
    }
  }

  private enum State {
    /** The first line of a reply. */
    REPLY_LINE,
    /** The data block of a VALUE, then its CRLF. */
    VALUE_DATA,
    /** After a data block: another VALUE line or END. */
    NEXT_VALUE_LINE,
    /** After a STAT line: another STAT line or END. */
    NEXT_STAT_LINE,
    /** After a failure: everything is skipped. */
    BAD
  }

  private final int maxLineBytes;
  private final int maxValueBytes;

  private State state = State.REPLY_LINE;
  private final List<MemcacheReply.Value> values = new ArrayList<>();
  private Map<String, String> stats = new LinkedHashMap<>();
  private String valueKey;
  private int valueFlags;
  private int valueLength;
  private long valueCas;
  /** The part of a data block collected so far, when it did not arrive at once. */
  private ByteBuf valueData;

  /** Creates a decoder with the default limits. */
  public MemcacheTextDecoder() {
    this(DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_VALUE_BYTES);
  }

  /**
   * Creates a decoder.
   *
   * @param maxLineBytes the longest reply line accepted, without its CRLF
   * @param maxValueBytes the largest data block accepted
   */
  public MemcacheTextDecoder(int maxLineBytes, int maxValueBytes) {
    if (maxLineBytes < 16 || maxValueBytes < 0) {
      throw new IllegalArgumentException("limits: line " + maxLineBytes + ", value " + maxValueBytes);
    }
    this.maxLineBytes = maxLineBytes;
    this.maxValueBytes = maxValueBytes;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    for (;;) {
      switch (state) {
        case REPLY_LINE:
          if (!decodeReplyLine(in, out)) {
            return;
          }
          break;
        case VALUE_DATA:
          if (!decodeValueData(ctx, in, out)) {
            return;
          }
          break;
        case NEXT_VALUE_LINE:
          if (!decodeNextValueLine(in, out)) {
            return;
          }
          break;
        case NEXT_STAT_LINE:
          if (!decodeNextStatLine(in, out)) {
            return;
          }
          break;
        case BAD:
          in.skipBytes(in.readableBytes());
          return;
        default:
          throw new IllegalStateException("state " + state);
      }
    }
  }

  @Override
  protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.isReadable()) {
      decode(ctx, in, out);
    }
    if (state != State.BAD && (state != State.REPLY_LINE || in.isReadable())) {
      out.add(new MemcacheDecoderFailure("connection closed in the middle of a reply", true));
      resetDecoder();
      state = State.BAD;
    }
    in.skipBytes(in.readableBytes());
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    resetDecoder();
  }

  private boolean decodeReplyLine(ByteBuf in, List<Object> out) {
    String line = readLine(in, out);
    if (line == null) {
      return state == State.BAD;
    }
    if (line.startsWith("VALUE ")) {
      return startValue(line, out);
    }
    if (line.startsWith("STAT ")) {
      return addStat(line, out);
    }
    if (line.equals("END")) {
      out.add(new MemcacheReply.Values(List.of()));
      resetDecoder();
      return true;
    }
    MemcacheReply.StatusWord word = STATUS_WORDS.get(line);
    if (word != null) {
      out.add(new MemcacheReply.Status(word));
      resetDecoder();
      return true;
    }
    MemcacheReply error = error(line);
    if (error != null) {
      out.add(error);
      resetDecoder();
      return true;
    }
    if (!line.isEmpty() && isDigit(line.charAt(0))) {
      return number(line, out);
    }
    return fail(out, "unknown reply line");
  }

  private boolean decodeValueData(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    byte[] data;
    if (valueData == null && in.readableBytes() >= (long) valueLength + 2) {
      // The usual case: the whole block is already here, no need to collect it.
      data = new byte[valueLength];
      in.readBytes(data);
    } else {
      if (valueData == null) {
        valueData = ctx.alloc().heapBuffer(Math.min(valueLength, 64 * 1024), valueLength);
      }
      int missing = valueLength - valueData.readableBytes();
      valueData.writeBytes(in, Math.min(missing, in.readableBytes()));
      if (valueData.readableBytes() < valueLength || in.readableBytes() < 2) {
        return false;
      }
      data = ByteBufUtil.getBytes(valueData);
      releaseValueData();
    }
    if (in.readByte() != '\r' || in.readByte() != '\n') {
      return fail(out, "data block not followed by CRLF");
    }
    values.add(new MemcacheReply.Value(valueKey, valueFlags, data, valueCas));
    state = State.NEXT_VALUE_LINE;
    return true;
  }

  private boolean decodeNextValueLine(ByteBuf in, List<Object> out) {
    String line = readLine(in, out);
    if (line == null) {
      return state == State.BAD;
    }
    if (line.startsWith("VALUE ")) {
      return startValue(line, out);
    }
    if (line.equals("END")) {
      out.add(new MemcacheReply.Values(List.copyOf(values)));
      resetDecoder();
      return true;
    }
    return fail(out, "expected VALUE or END after a data block");
  }

  private boolean decodeNextStatLine(ByteBuf in, List<Object> out) {
    String line = readLine(in, out);
    if (line == null) {
      return state == State.BAD;
    }
    if (line.startsWith("STAT ")) {
      return addStat(line, out);
    }
    if (line.equals("END")) {
      out.add(new MemcacheReply.StatsLines(Collections.unmodifiableMap(stats)));
      stats = new LinkedHashMap<>();
      resetDecoder();
      return true;
    }
    return fail(out, "expected STAT or END after a STAT line");
  }

  /** {@code VALUE <key> <flags> <bytes> [<cas unique>]}. */
  private boolean startValue(String line, List<Object> out) {
    String[] parts = line.split(" ", -1);
    if (parts.length < 4 || parts.length > 5 || parts[1].isEmpty()
        || !isNumber(parts[2], 10) || !isNumber(parts[3], 10) || (parts.length == 5 && !isNumber(parts[4], 20))) {
      return fail(out, "bad VALUE line");
    }
    long flags = Long.parseLong(parts[2]);
    long length = Long.parseLong(parts[3]);
    if (flags > 0xFFFF_FFFFL) {
      return fail(out, "bad VALUE line");
    }
    if (length > maxValueBytes) {
      return fail(out, "value length: " + length + " (expected: <= " + maxValueBytes + ")");
    }
    long cas = -1;
    if (parts.length == 5) {
      try {
        cas = Long.parseUnsignedLong(parts[4]);
      } catch (NumberFormatException e) {
        return fail(out, "bad VALUE line");
      }
    }
    valueKey = parts[1];
    valueFlags = (int) flags;
    valueLength = (int) length;
    valueCas = cas;
    state = State.VALUE_DATA;
    return true;
  }

  /** {@code STAT <name> <value>}; the value may hold spaces and may be missing. */
  private boolean addStat(String line, List<Object> out) {
    String rest = line.substring("STAT ".length());
    int space = rest.indexOf(' ');
    String name = space < 0 ? rest : rest.substring(0, space);
    if (name.isEmpty()) {
      return fail(out, "bad STAT line");
    }
    stats.put(name, space < 0 ? "" : rest.substring(space + 1));
    state = State.NEXT_STAT_LINE;
    return true;
  }

  /** The incr/decr result; memcached may pad it with spaces when the number got shorter. */
  private boolean number(String line, List<Object> out) {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == ' ') {
      end--;
    }
    String digits = line.substring(0, end);
    if (!isNumber(digits, 20)) {
      return fail(out, "bad number line");
    }
    try {
      out.add(new MemcacheReply.Number(Long.parseUnsignedLong(digits)));
    } catch (NumberFormatException e) {
      return fail(out, "bad number line");
    }
    resetDecoder();
    return true;
  }

  private static MemcacheReply error(String line) {
    for (MemcacheReply.ErrorKind kind : MemcacheReply.ErrorKind.values()) {
      if (line.equals(kind.name())) {
        return new MemcacheReply.Error(kind, "");
      }
      if (line.startsWith(ERROR_PREFIXES.get(kind))) {
        return new MemcacheReply.Error(kind, line.substring(kind.name().length() + 1));
      }
    }
    return null;
  }

  /**
   * Reads one line up to CRLF, without it.
   *
   * @return the line, or null when more bytes are needed or the line is bad (then the state is BAD)
   */
  private String readLine(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    int scan = Math.min(in.readableBytes(), maxLineBytes + 2);
    int lf = in.forEachByte(start, scan, ByteProcessor.FIND_LF);
    if (lf < 0) {
      if (in.readableBytes() >= maxLineBytes + 2) {
        fail(out, "line length: " + in.readableBytes() + " (expected: <= " + maxLineBytes + ")");
      }
      return null;
    }
    if (lf == start || in.getByte(lf - 1) != '\r') {
      fail(out, "line not ended by CRLF");
      return null;
    }
    String line = in.toString(start, lf - 1 - start, StandardCharsets.UTF_8);
    in.readerIndex(lf + 1);
    return line;
  }

  private boolean fail(List<Object> out, String problem) {
    out.add(new MemcacheDecoderFailure(problem, false));
    resetDecoder();
    state = State.BAD;
    return true;
  }

  private void resetDecoder() {
    state = State.REPLY_LINE;
    values.clear();
    stats.clear();
    valueKey = null;
    releaseValueData();
  }

  private void releaseValueData() {
    if (valueData != null) {
      valueData.release();
      valueData = null;
    }
  }

  private static boolean isNumber(String text, int maxDigits) {
    if (text.isEmpty() || text.length() > maxDigits) {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      if (!isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
