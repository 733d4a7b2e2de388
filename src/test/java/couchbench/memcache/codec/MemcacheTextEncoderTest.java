package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MemcacheTextEncoderTest {

  @Test
  void shouldWriteEveryStorageCommand() {
    byte[] hello = ascii("hello");
    assertEquals("set k 0 0 5\r\nhello\r\n", encode(store(StoreCommand.SET, "k", 0, 0, hello, 0, false)));
    assertEquals("add k 7 60 5\r\nhello\r\n", encode(store(StoreCommand.ADD, "k", 7, 60, hello, 0, false)));
    assertEquals("replace k 0 0 5 noreply\r\nhello\r\n",
        encode(store(StoreCommand.REPLACE, "k", 0, 0, hello, 0, true)));
    assertEquals("append k 0 0 5\r\nhello\r\n", encode(store(StoreCommand.APPEND, "k", 0, 0, hello, 99, false)));
    assertEquals("prepend k 0 0 0\r\n\r\n", encode(store(StoreCommand.PREPEND, "k", 0, 0, new byte[0], 0, false)));
    assertEquals("cas k 0 0 5 12345\r\nhello\r\n", encode(store(StoreCommand.CAS, "k", 0, 0, hello, 12345, false)));
    assertEquals("cas k 0 0 5 18446744073709551615 noreply\r\nhello\r\n",
        encode(store(StoreCommand.CAS, "k", 0, 0, hello, -1, true)));
  }

  @Test
  void shouldWriteFlagsUnsignedAndExptimeSigned() {
    assertEquals("set k 4294967295 -1 1\r\nx\r\n", encode(store(StoreCommand.SET, "k", -1, -1, ascii("x"), 0, false)));
  }

  @Test
  void shouldWriteKeysAsUtf8() {
    assertArrayEquals("get ключ\r\n".getBytes(StandardCharsets.UTF_8),
        encodeBytes(new MemcacheRequest.Retrieve(false, List.of("ключ"))));
  }

  @Test
  void shouldWriteRetrievalDeleteArithmeticTouchAndStats() {
    assertEquals("get a\r\n", encode(new MemcacheRequest.Retrieve(false, List.of("a"))));
    assertEquals("gets a b c\r\n", encode(new MemcacheRequest.Retrieve(true, List.of("a", "b", "c"))));
    assertEquals("delete a\r\n", encode(new MemcacheRequest.Delete("a", false)));
    assertEquals("delete a noreply\r\n", encode(new MemcacheRequest.Delete("a", true)));
    assertEquals("incr n 5\r\n", encode(new MemcacheRequest.Arithmetic(true, "n", 5, false)));
    assertEquals("decr n 18446744073709551615 noreply\r\n",
        encode(new MemcacheRequest.Arithmetic(false, "n", -1, true)), "the delta is unsigned");
    assertEquals("incr n 9223372036854775808\r\n",
        encode(new MemcacheRequest.Arithmetic(true, "n", Long.MIN_VALUE, false)));
    assertEquals("touch t 300\r\n", encode(new MemcacheRequest.Touch("t", 300, false)));
    assertEquals("touch t 0 noreply\r\n", encode(new MemcacheRequest.Touch("t", 0, true)));
    assertEquals("stats\r\n", encode(new MemcacheRequest.Stats("")));
    assertEquals("stats items\r\n", encode(new MemcacheRequest.Stats("items")));
  }

  @Test
  void shouldWriteALargeDataBlockExactly() {
    byte[] data = new byte[3 * 1024 * 1024];
    new Random(1).nextBytes(data);
    byte[] encoded = encodeBytes(store(StoreCommand.SET, "big", 0, 0, data, 0, true));
    byte[] line = ascii("set big 0 0 " + data.length + " noreply\r\n");
    assertArrayEquals(line, Arrays.copyOf(encoded, line.length));
    assertArrayEquals(data, Arrays.copyOfRange(encoded, line.length, line.length + data.length));
    assertEquals("\r\n", new String(encoded, encoded.length - 2, 2, StandardCharsets.US_ASCII));
    assertEquals(line.length + data.length + 2, encoded.length);
  }

  @Test
  void shouldRefuseAStatsGroupThatWouldAddACommand() {
    EmbeddedChannel channel = new EmbeddedChannel(new MemcacheTextEncoder());
    assertThrows(EncoderException.class, () -> channel.writeOutbound(new MemcacheRequest.Stats("items\r\nflush_all")));
    assertFalse(channel.finish());
  }

  @Test
  void shouldRoundTripRandomRequestsThroughATinyCommandParser() {
    Random random = new Random(99);
    for (int i = 0; i < 2000; i++) {
      MemcacheRequest request = randomRequest(random);
      assertEquals(describe(request), CommandParser.parse(encodeBytes(request)), describe(request));
    }
  }

  private static MemcacheRequest randomRequest(Random random) {
    String key = "k" + Integer.toHexString(random.nextInt());
    boolean noreply = random.nextBoolean();
    return switch (random.nextInt(6)) {
      case 0 -> {
        byte[] value = new byte[random.nextInt(random.nextBoolean() ? 50 : 40_000)];
        random.nextBytes(value);
        yield store(StoreCommand.values()[random.nextInt(StoreCommand.values().length)], key, random.nextInt(),
            random.nextInt(100_000), value, random.nextLong(), noreply);
      }
      case 1 -> new MemcacheRequest.Retrieve(random.nextBoolean(),
          List.of(key, key + "x", key + "y").subList(0, 1 + random.nextInt(3)));
      case 2 -> new MemcacheRequest.Delete(key, noreply);
      case 3 -> new MemcacheRequest.Arithmetic(random.nextBoolean(), key, random.nextLong(), noreply);
      case 4 -> new MemcacheRequest.Touch(key, random.nextInt(100_000), noreply);
      default -> new MemcacheRequest.Stats(random.nextBoolean() ? "" : "slabs");
    };
  }

  /** The request's fields as the parser sees them: a cas unique only for cas, data by content. */
  static String describe(MemcacheRequest request) {
    if (request instanceof MemcacheRequest.Store s) {
      return "store " + s.command() + " " + s.key() + " " + Integer.toUnsignedString(s.flags()) + " " + s.exptime()
          + " " + (s.command() == StoreCommand.CAS ? Long.toUnsignedString(s.casUnique()) : "-") + " " + s.noreply()
          + " " + Arrays.hashCode(s.value()) + "/" + s.value().length;
    }
    if (request instanceof MemcacheRequest.Arithmetic a) {
      return "arith " + a.increment() + " " + a.key() + " " + Long.toUnsignedString(a.delta()) + " " + a.noreply();
    }
    return request.toString();
  }

  /** A hand-written reader of memcache commands, the server side of the round trip. */
  private static final class CommandParser {

    static String parse(byte[] bytes) {
      int lineEnd = indexOfCrLf(bytes);
      String[] t = new String(bytes, 0, lineEnd, StandardCharsets.UTF_8).split(" ");
      int rest = lineEnd + 2;
      boolean noreply = t[t.length - 1].equals("noreply");
      switch (t[0]) {
        case "set", "add", "replace", "append", "prepend", "cas" -> {
          int length = Integer.parseInt(t[4]);
          byte[] data = Arrays.copyOfRange(bytes, rest, rest + length);
          assertEquals("\r\n", new String(bytes, rest + length, 2, StandardCharsets.US_ASCII));
          assertEquals(rest + length + 2, bytes.length, "nothing after the data block");
          String cas = t[0].equals("cas") ? t[5] : "-";
          return "store " + t[0].toUpperCase() + " " + t[1] + " " + t[2] + " " + t[3] + " " + cas + " " + noreply
              + " " + Arrays.hashCode(data) + "/" + length;
        }
        case "get", "gets" -> {
          assertEquals(rest, bytes.length);
          return new MemcacheRequest.Retrieve(t[0].equals("gets"), List.of(t).subList(1, t.length)).toString();
        }
        case "delete" -> {
          return new MemcacheRequest.Delete(t[1], noreply).toString();
        }
        case "incr", "decr" -> {
          return "arith " + t[0].equals("incr") + " " + t[1] + " " + t[2] + " " + noreply;
        }
        case "touch" -> {
          return new MemcacheRequest.Touch(t[1], Long.parseLong(t[2]), noreply).toString();
        }
        case "stats" -> {
          return new MemcacheRequest.Stats(t.length > 1 ? t[1] : "").toString();
        }
        default -> throw new AssertionError("unknown command " + t[0]);
      }
    }

    private static int indexOfCrLf(byte[] bytes) {
      for (int i = 0; i + 1 < bytes.length; i++) {
        if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
          return i;
        }
      }
      throw new AssertionError("no CRLF");
    }
  }

  private static MemcacheRequest.Store store(StoreCommand command, String key, int flags, long exptime,
      byte[] value, long cas, boolean noreply) {
    return new MemcacheRequest.Store(command, key, flags, exptime, value, cas, noreply);
  }

  private static String encode(MemcacheRequest request) {
    return new String(encodeBytes(request), StandardCharsets.UTF_8);
  }

  private static byte[] encodeBytes(MemcacheRequest request) {
    EmbeddedChannel channel = new EmbeddedChannel(new MemcacheTextEncoder());
    channel.writeOutbound(request);
    List<ByteBuf> out = new ArrayList<>();
    for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
      out.add(buf);
    }
    assertEquals(1, out.size(), "one buffer per request");
    byte[] bytes = ByteBufUtil.getBytes(out.get(0));
    out.get(0).release();
    assertEquals(0, out.get(0).refCnt());
    assertFalse(channel.finish());
    return bytes;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
