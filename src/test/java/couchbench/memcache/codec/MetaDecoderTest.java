package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import couchbench.memcache.codec.MemcacheTextDecoderTest.Feeding;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/** The meta protocol's replies, read by the same decoder as the text protocol's, as memcached 1.6.18 sends them. */
class MetaDecoderTest {

  private final Random random = new Random(20250101);

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeEveryCodeWithoutFlags(Feeding feeding) {
    for (MetaReply.Code code : MetaReply.Code.values()) {
      if (code != MetaReply.Code.VA) {
        assertEquals(List.of(ReplyText.meta(code, "", -1, null)), decode(code + "\r\n", feeding));
      }
    }
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.VA, "", -1, new byte[0])), decode("VA 0\r\n\r\n", feeding));
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeReturnedFlagsAndTheOpaqueTag(Feeding feeding) {
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.VA, "c1 t-1 f5 s3 kfoo O13 l0 h0", 13, bytes("bar"))),
        decode("VA 3 c1 t-1 f5 s3 kfoo O13 l0 h0\r\nbar\r\n", feeding));
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.HD, "O12", 12, null)), decode("HD O12\r\n", feeding));
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.EN, "O2147483647", Integer.MAX_VALUE, null)),
        decode("EN O2147483647\r\n", feeding));
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.VA, "c6 X W", -1, bytes("xx"))),
        decode("VA 2 c6 X W\r\nxx\r\n", feeding), "stale, and this client won the recache");
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.VA, "kZm9v b O10 c17 Z", 10, bytes("a\r\nEND\r\n"))),
        decode("VA 8 kZm9v b O10 c17 Z\r\na\r\nEND\r\n\r\n", feeding), "a base64 key; data with line ends");
    for (String code : List.of("NS", "EX", "NF")) {
      assertEquals(List.of(ReplyText.meta(MetaReply.Code.valueOf(code), "O7", 7, null)), decode(code + " O7\r\n", feeding));
    }
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldReadMeAsAKeyAndPairsWithoutOpaque(Feeding feeding) {
    assertEquals(List.of(ReplyText.meta(MetaReply.Code.ME, "Ofoo exp=-1 la=0 cas=1 fetch=yes cls=1 size=69", -1, null)),
        decode("ME Ofoo exp=-1 la=0 cas=1 fetch=yes cls=1 size=69\r\n", feeding));
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeAQuietBatchBesideTextRepliesAndErrors(Feeding feeding) {
    assertEquals(List.of(
            ReplyText.meta(MetaReply.Code.VA, "O14", 14, bytes("bar")),
            ReplyText.meta(MetaReply.Code.NS, "O5", 5, null),
            "Error[kind=CLIENT_ERROR, message=bad command line format]",
            ReplyText.meta(MetaReply.Code.MN, "", -1, null),
            "Status[word=STORED]", "Values[k/0/-=v]", "Status[word=EXISTS]", "Status[word=OK]", "Values[]"),
        decode("VA 3 O14\r\nbar\r\nNS O5\r\nCLIENT_ERROR bad command line format\r\nMN\r\n"
            + "STORED\r\nVALUE k 0 1\r\nv\r\nEND\r\nEXISTS\r\nOK\r\nEND\r\n", feeding));
  }

  @Test
  void shouldKeepTheFlagsForLookUp() {
    MetaReply reply = assertInstanceOf(MetaReply.class,
        new DecoderFeed().feed(bytes("HD c42 t-1 W kfoo O3\r\n"), new int[0]).get(0));
    assertEquals(Optional.of("42"), reply.flag('c'));
    assertEquals(Optional.of("-1"), reply.flag('t'));
    assertEquals(Optional.of(""), reply.flag('W'));
    assertEquals(Optional.of("foo"), reply.flag('k'));
    assertEquals(Optional.empty(), reply.flag('s'));
    assertEquals(Optional.empty(), new MetaReply(MetaReply.Code.ME, "cas=1", -1, null).flag('c'));
  }

  @Test
  void shouldDecodeATenMegabyteValueSplitAnywhere() {
    byte[] data = new byte[10 * 1024 * 1024];
    random.nextBytes(data);
    byte[] head = bytes("VA " + data.length + " O1\r\n");
    byte[] input = new byte[head.length + data.length + 2];
    System.arraycopy(head, 0, input, 0, head.length);
    System.arraycopy(data, 0, input, head.length, data.length);
    input[input.length - 2] = '\r';
    input[input.length - 1] = '\n';
    DecoderFeed feed = new DecoderFeed();
    List<Object> out = feed.feed(input, DecoderFeed.randomCuts(input.length, random, 20));
    assertArrayEquals(data, assertInstanceOf(MetaReply.class, out.get(0)).data());
    assertEquals(List.of(), feed.finish());
    assertEquals(0, feed.unreleased());
  }

  @Test
  void shouldFailAVaLargerThanTheLimitBeforeReadingIt() {
    DecoderFeed feed = new DecoderFeed(new MemcacheTextDecoder(8192, 100));
    assertEquals(List.of(new MemcacheDecoderFailure("value length: 101 (expected: <= 100)", false)),
        feed.feed(bytes("VA 101 O1\r\n"), new int[0]));
    assertEquals(0, feed.unreleased());
  }

  @Test
  void shouldFailMalformedMetaRepliesWithAGroupedProblem() {
    Map<String, String> cases = Map.of(
        "VA\r\n", "bad VA line",
        "VA x O1\r\nabc\r\n", "bad VA line",
        "VA -1\r\n", "bad VA line",
        "HD O\r\n", "bad opaque token",
        "HD Ox1\r\n", "bad opaque token",
        "EN O2147483648\r\n", "bad opaque token",
        "VA 3 O1\r\nabcd\r\n", "data block not followed by CRLF",
        "HX\r\n", "unknown reply line",
        "MNO\r\n", "unknown reply line");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      for (Feeding feeding : Feeding.values()) {
        assertEquals(List.of(new MemcacheDecoderFailure(c.getValue(), false).toString()), decode(c.getKey(), feeding),
            c.getKey());
      }
    }
  }

  @Test
  void shouldReportATruncatedValueAndReleaseItsHalf() {
    DecoderFeed feed = new DecoderFeed();
    assertEquals(List.of(), feed.feed(bytes("VA 100000 O9\r\n" + "x".repeat(50000)), new int[] {5, 30000}));
    assertEquals(List.of(new MemcacheDecoderFailure("connection closed in the middle of a reply", true)),
        feed.finish());
    assertEquals(0, feed.unreleased());
  }

  private List<String> decode(String input, Feeding feeding) {
    DecoderFeed feed = new DecoderFeed();
    byte[] bytes = bytes(input);
    List<Object> out = feed.feed(bytes, feeding.cuts(bytes.length, random));
    assertEquals(List.of(), feed.finish(), "nothing left half-decoded");
    assertEquals(0, feed.unreleased(), "every buffer released");
    return out.stream().map(ReplyText::of).toList();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
