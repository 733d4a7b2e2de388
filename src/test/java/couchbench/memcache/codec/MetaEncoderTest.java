package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import couchbench.memcache.codec.MetaRequest.Command;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetaEncoderTest {

  @Test
  void shouldWriteEveryCommandWithItsFlagsQuietModeAndOpaqueTag() {
    assertEquals("mg k v c t O7\r\n", encode(MetaRequest.of(Command.GET, "k", "v c t", null).withOpaque(7)));
    assertEquals("ms k 5 F0 T0 q O0\r\nhello\r\n",
        encode(new MetaRequest(Command.SET, "k", false, "F0 T0", ascii("hello"), true, 0)));
    assertEquals("ms k 0\r\n\r\n", encode(MetaRequest.of(Command.SET, "k", "", new byte[0])));
    assertEquals("md k I T30 O2147483647\r\n",
        encode(MetaRequest.of(Command.DELETE, "k", "I T30", null).withOpaque(Integer.MAX_VALUE)));
    assertEquals("ma n MD D3 v\r\n", encode(MetaRequest.of(Command.ARITHMETIC, "n", "MD D3 v", null)));
    assertEquals("me k\r\n", encode(MetaRequest.of(Command.DEBUG, "k", "", null)));
    assertEquals("mn\r\n", encode(MetaRequest.noop()));
  }

  @Test
  void shouldWriteABase64KeyWithTheBFlag() {
    String key = "a key\r\nwith line ends";
    String encoded = Base64.getEncoder().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    assertEquals("ms " + encoded + " 1 b T0 O3\r\nx\r\n",
        encode(new MetaRequest(Command.SET, key, true, "T0", ascii("x"), false, 3)));
  }

  @Test
  void shouldLeaveTextRequestsToTheTextEncoderAndMetaOnesToItself() {
    EmbeddedChannel channel = new EmbeddedChannel(new MemcacheTextEncoder(), new MetaEncoder());
    channel.writeOutbound(new MemcacheRequest.Retrieve(false, List.of("a")), MetaRequest.of(Command.GET, "a", "v", null));
    assertEquals(List.of("get a\r\n", "mg a v\r\n"), drain(channel));
    assertFalse(channel.finish());
  }

  @Test
  void shouldWrapALargeValueRatherThanCopyIt() {
    byte[] big = new byte[100_000];
    String written = encode(MetaRequest.of(Command.SET, "k", "", big));
    assertEquals("ms k 100000\r\n".length() + 100_000 + 2, written.length());
  }

  @Test
  void shouldRefuseFlagsThatWouldBreakTheLineOrTakeTheClientsOwnFlags() {
    assertEquals(Optional.empty(), MetaRequest.of(Command.GET, "k", "v c t N30 R10 E99", null).flagsProblem());
    assertEquals(Optional.empty(), MetaRequest.of(Command.GET, "k", "", null).flagsProblem());
    for (String bad : new String[] {"v\r\nmn", " v", "v ", "v  c", "1", "v\tc", "v é"}) {
      assertEquals(Optional.of("meta flags: tokens of printable ASCII starting with a letter, single spaces apart"),
          MetaRequest.of(Command.GET, "k", bad, null).flagsProblem(), bad);
    }
    for (String own : new String[] {"q", "v O1", "b"}) {
      assertEquals(Optional.of("meta flags: b, q and O are set by their own options"),
          MetaRequest.of(Command.GET, "k", own, null).flagsProblem(), own);
    }
  }

  @Test
  void shouldAllowBase64KeysOfUpTo186BytesOfAnyText() {
    assertEquals(Optional.empty(), MemcacheKeys.metaProblem("a b\r\n\u0000", true));
    assertEquals(Optional.empty(), MemcacheKeys.metaProblem("x".repeat(186), true));
    assertEquals(Optional.of("key longer than 186 bytes (250 in base64)"), MemcacheKeys.metaProblem("x".repeat(187), true));
    assertEquals(Optional.of("key is not valid Unicode text"), MemcacheKeys.metaProblem("a\ud800", true));
    assertEquals(Optional.of("empty key"), MemcacheKeys.metaProblem("", true));
    assertEquals(Optional.of("key contains whitespace or control characters"), MemcacheKeys.metaProblem("a b", false));
  }

  private static String encode(MetaRequest request) {
    EmbeddedChannel channel = new EmbeddedChannel(new MetaEncoder());
    channel.writeOutbound(request);
    List<String> out = drain(channel);
    assertEquals(1, out.size(), "one buffer per request");
    assertFalse(channel.finish());
    return out.get(0);
  }

  private static List<String> drain(EmbeddedChannel channel) {
    List<String> out = new ArrayList<>();
    for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
      out.add(new String(ByteBufUtil.getBytes(buf), StandardCharsets.ISO_8859_1));
      buf.release();
      assertEquals(0, buf.refCnt());
    }
    return out;
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
