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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads memcache text-protocol replies into {@link MemcacheReply}s, one per request, in order: those of the classic
 * commands, and those of the meta commands ({@link MetaReply}), whose two-letter codes no classic reply line has.
 *
 * <p>It knows nothing of the requests: a bare {@code END} is an empty {@link MemcacheReply.Values}, whether it
 * answers a get or a stats request. Input that is not a reply becomes a {@link MemcacheDecoderFailure}, after
 * which all further input is skipped. A channel that closes in the middle of a reply gives a
 * {@link MemcacheDecoderFailure} too, marked {@link MemcacheDecoderFailure#truncated() truncated}, and no part of
 * the reply; one that closes between replies gives nothing. A data block is collected as it arrives, split
 * anywhere; the part collected so far is released when the channel closes.
 */
public final class MemcacheTextDecoder extends ByteToMessageDecoder {

  /** Longest reply line without its CRLF; memcached's longest are VALUE lines of about 300 bytes. */
  public static final int DEFAULT_MAX_LINE_BYTES = 8192;
  /** Largest data block: memcached stops at 1 MB by default, MemcacheDB has no limit of its own. */
  public static final int DEFAULT_MAX_VALUE_BYTES = 64 * 1024 * 1024;

  // The usual lines (END, STORED, VALUE ...) are matched as bytes in the buffer: no String per reply line.
  private static final byte[] END = ascii("END");
  private static final byte[] VALUE = ascii("VALUE ");
  private static final byte[] STAT = ascii("STAT ");
  private static final MemcacheReply.StatusWord[] STATUS_WORDS = MemcacheReply.StatusWord.values();
  private static final byte[][] STATUS_WORD_BYTES = new byte[STATUS_WORDS.length][];
  private static final Map<MemcacheReply.ErrorKind, String> ERROR_PREFIXES =
      new EnumMap<>(MemcacheReply.ErrorKind.class);

  static {
    for (MemcacheReply.StatusWord word : STATUS_WORDS) {
      STATUS_WORD_BYTES[word.ordinal()] = ascii(word.name());
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
  /** For a VA line: its code, flags and opaque number, until its data block is read; else null. */
  private MetaReply.Code metaCode;
  private String metaFlags;
  private int metaOpaque;
  /** The part of a data block collected so far, when it did not arrive at once. */
  private ByteBuf valueData;
  /** Where the line that {@link #readLine} found starts in the buffer, and its length without CRLF. */
  private int lineStart;
  private int lineLength;

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
    if (!readLine(in, out)) {
      return state == State.BAD;
    }
    MetaReply.Code code = metaCode(in);
    if (code != null) {
      return startMeta(code, in, out);
    }
    if (lineStartsWith(in, VALUE)) {
      return startValue(in, out);
    }
    if (lineStartsWith(in, STAT)) {
      return addStat(lineText(in), out);
    }
    if (lineIs(in, END)) {
      out.add(new MemcacheReply.Values(List.of()));
      resetDecoder();
      return true;
    }
    MemcacheReply.StatusWord word = statusWord(in);
    if (word != null) {
      out.add(new MemcacheReply.Status(word));
      resetDecoder();
      return true;
    }
    String line = lineText(in);
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
    if (metaCode != null) {
      out.add(new MetaReply(metaCode, metaFlags, metaOpaque, data));
      resetDecoder();
      return true;
    }
    values.add(new MemcacheReply.Value(valueKey, valueFlags, data, valueCas));
    state = State.NEXT_VALUE_LINE;
    return true;
  }

  private boolean decodeNextValueLine(ByteBuf in, List<Object> out) {
    if (!readLine(in, out)) {
      return state == State.BAD;
    }
    if (lineStartsWith(in, VALUE)) {
      return startValue(in, out);
    }
    if (lineIs(in, END)) {
      out.add(new MemcacheReply.Values(List.copyOf(values)));
      resetDecoder();
      return true;
    }
    return fail(out, "expected VALUE or END after a data block");
  }

  private boolean decodeNextStatLine(ByteBuf in, List<Object> out) {
    if (!readLine(in, out)) {
      return state == State.BAD;
    }
    if (lineStartsWith(in, STAT)) {
      return addStat(lineText(in), out);
    }
    if (lineIs(in, END)) {
      out.add(new MemcacheReply.StatsLines(Collections.unmodifiableMap(stats)));
      stats = new LinkedHashMap<>();
      resetDecoder();
      return true;
    }
    return fail(out, "expected STAT or END after a STAT line");
  }

  /** {@code VALUE <key> <flags> <bytes> [<cas unique>]}, single spaces apart, read from the line's bytes. */
  private boolean startValue(ByteBuf in, List<Object> out) {
    int end = lineStart + lineLength;
    int keyStart = lineStart + VALUE.length;
    int keyEnd = spaceOrEnd(in, keyStart, end);
    int flagsEnd = spaceOrEnd(in, keyEnd + 1, end);
    int lengthEnd = spaceOrEnd(in, flagsEnd + 1, end);
    int casEnd = lengthEnd < end ? spaceOrEnd(in, lengthEnd + 1, end) : -1;
    long flags = keyEnd < end ? digits(in, keyEnd + 1, flagsEnd, 10) : -1;
    long length = flagsEnd < end ? digits(in, flagsEnd + 1, lengthEnd, 10) : -1;
    boolean casGiven = casEnd >= 0;
    if (keyEnd == keyStart || flags < 0 || flags > 0xFFFF_FFFFL || length < 0
        || (casGiven && (casEnd != end || digits(in, lengthEnd + 1, casEnd, 20) == -1))) {
      return fail(out, "bad VALUE line");
    }
    if (length > maxValueBytes) {
      return fail(out, "value length: " + length + " (expected: <= " + maxValueBytes + ")");
    }
    long cas = -1;
    if (casGiven) {
      try {
        cas = Long.parseUnsignedLong(in.toString(lengthEnd + 1, casEnd - lengthEnd - 1, StandardCharsets.US_ASCII));
      } catch (NumberFormatException e) {
        return fail(out, "bad VALUE line");
      }
    }
    valueKey = in.toString(keyStart, keyEnd - keyStart, StandardCharsets.UTF_8);
    valueFlags = (int) flags;
    valueLength = (int) length;
    valueCas = cas;
    state = State.VALUE_DATA;
    return true;
  }

  /** The meta code the line starts with, followed by a space or nothing; null for a line of the classic protocol. */
  private MetaReply.Code metaCode(ByteBuf in) {
    if (lineLength < 2 || (lineLength > 2 && in.getByte(lineStart + 2) != ' ')) {
      return null;
    }
    return switch (in.getShort(lineStart)) {
      case 'V' << 8 | 'A' -> MetaReply.Code.VA;
      case 'H' << 8 | 'D' -> MetaReply.Code.HD;
      case 'E' << 8 | 'N' -> MetaReply.Code.EN;
      case 'N' << 8 | 'S' -> MetaReply.Code.NS;
      case 'E' << 8 | 'X' -> MetaReply.Code.EX;
      case 'N' << 8 | 'F' -> MetaReply.Code.NF;
      case 'M' << 8 | 'N' -> MetaReply.Code.MN;
      case 'M' << 8 | 'E' -> MetaReply.Code.ME;
      default -> null;
    };
  }

  /**
   * {@code <code> [<datalen>] <flags>*}, single spaces apart, the datalen for VA only: a VA goes on to its data block,
   * the others are whole. The opaque token is read as a number, as this client writes it; ME's line is a key and
   * {@code name=value} pairs, without one.
   */
  private boolean startMeta(MetaReply.Code code, ByteBuf in, List<Object> out) {
    int end = lineStart + lineLength;
    int flagsStart = Math.min(lineStart + 3, end);
    long length = 0;
    if (code == MetaReply.Code.VA) {
      int lengthEnd = spaceOrEnd(in, flagsStart, end);
      length = digits(in, flagsStart, lengthEnd, 10);
      if (length < 0) {
        return fail(out, "bad VA line");
      }
      if (length > maxValueBytes) {
        return fail(out, "value length: " + length + " (expected: <= " + maxValueBytes + ")");
      }
      flagsStart = Math.min(lengthEnd + 1, end);
    }
    int opaque = code == MetaReply.Code.ME ? -1 : opaque(in, flagsStart, end);
    if (opaque == -2) {
      return fail(out, "bad opaque token");
    }
    String flags = flagsStart == end ? "" : in.toString(flagsStart, end - flagsStart, StandardCharsets.UTF_8);
    if (code != MetaReply.Code.VA) {
      out.add(new MetaReply(code, flags, opaque, null));
      resetDecoder();
      return true;
    }
    metaCode = code;
    metaFlags = flags;
    metaOpaque = opaque;
    valueLength = (int) length;
    state = State.VALUE_DATA;
    return true;
  }

  /** The number of the first {@code O} token in {@code [from, end)}: -1 when there is none, -2 when it is no int. */
  private static int opaque(ByteBuf in, int from, int end) {
    for (int token = from; token < end; ) {
      int tokenEnd = spaceOrEnd(in, token, end);
      if (in.getByte(token) == 'O') {
        long number = digits(in, token + 1, tokenEnd, 10);
        return number < 0 || number > Integer.MAX_VALUE ? -2 : (int) number;
      }
      token = tokenEnd + 1;
    }
    return -1;
  }

  /** The index of the next space from {@code from}, or {@code end}. */
  private static int spaceOrEnd(ByteBuf in, int from, int end) {
    if (from >= end) {
      return end;
    }
    int space = in.indexOf(from, end, (byte) ' ');
    return space < 0 ? end : space;
  }

  /**
   * The decimal number in {@code [from, to)}: -1 when it is empty, longer than maxDigits or holds
   * another byte; -2 when its digits are fine but it does not fit a long (the caller parses it unsigned).
   */
  private static long digits(ByteBuf in, int from, int to, int maxDigits) {
    if (to <= from || to - from > maxDigits) {
      return -1;
    }
    long value = 0;
    boolean overflow = false;
    for (int i = from; i < to; i++) {
      byte b = in.getByte(i);
      if (b < '0' || b > '9') {
        return -1;
      }
      overflow |= value > (Long.MAX_VALUE - (b - '0')) / 10;
      value = value * 10 + (b - '0');
    }
    return overflow ? -2 : value;
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
   * Finds one line up to CRLF and moves past it; its bytes stay in the buffer, at {@link #lineStart}
   * for {@link #lineLength} bytes, until this decode call returns.
   *
   * @return true for a line; false when more bytes are needed or the line is bad (then the state is BAD)
   */
  private boolean readLine(ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    int scan = Math.min(in.readableBytes(), maxLineBytes + 2);
    int lf = in.forEachByte(start, scan, ByteProcessor.FIND_LF);
    if (lf < 0) {
      if (in.readableBytes() >= maxLineBytes + 2) {
        fail(out, "line length: " + in.readableBytes() + " (expected: <= " + maxLineBytes + ")");
      }
      return false;
    }
    if (lf == start || in.getByte(lf - 1) != '\r') {
      fail(out, "line not ended by CRLF");
      return false;
    }
    lineStart = start;
    lineLength = lf - 1 - start;
    in.readerIndex(lf + 1);
    return true;
  }

  private String lineText(ByteBuf in) {
    return in.toString(lineStart, lineLength, StandardCharsets.UTF_8);
  }

  private boolean lineIs(ByteBuf in, byte[] word) {
    return lineLength == word.length && lineStartsWith(in, word);
  }

  private boolean lineStartsWith(ByteBuf in, byte[] prefix) {
    if (lineLength < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (in.getByte(lineStart + i) != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private MemcacheReply.StatusWord statusWord(ByteBuf in) {
    for (MemcacheReply.StatusWord word : STATUS_WORDS) {
      if (lineIs(in, STATUS_WORD_BYTES[word.ordinal()])) {
        return word;
      }
    }
    return null;
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
    metaCode = null;
    metaFlags = null;
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

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
