package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class MemcacheTextDecoderTest {

  /** How input is cut into fragments. */
  enum Feeding {
    ALL_AT_ONCE, BYTE_BY_BYTE, RANDOM_CHUNKS;

    int[] cuts(int length, Random random) {
      return switch (this) {
        case ALL_AT_ONCE -> DecoderFeed.allAtOnce(length);
        case BYTE_BY_BYTE -> DecoderFeed.byteByByte(length);
        case RANDOM_CHUNKS -> DecoderFeed.randomCuts(length, random, 1 + random.nextInt(8));
      };
    }
  }

  private final Random random = new Random(20240611);

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeEveryStatusWord(Feeding feeding) {
    for (MemcacheReply.StatusWord word : MemcacheReply.StatusWord.values()) {
      assertEquals(List.of("Status[word=" + word + "]"), decode(word + "\r\n", feeding));
    }
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeErrorsWithAndWithoutText(Feeding feeding) {
    assertEquals(List.of("Error[kind=ERROR, message=]"), decode("ERROR\r\n", feeding));
    assertEquals(List.of("Error[kind=CLIENT_ERROR, message=bad data chunk]"),
        decode("CLIENT_ERROR bad data chunk\r\n", feeding));
    assertEquals(List.of("Error[kind=SERVER_ERROR, message=object too large for cache]"),
        decode("SERVER_ERROR object too large for cache\r\n", feeding));
    assertEquals(List.of("Error[kind=SERVER_ERROR, message=]"), decode("SERVER_ERROR\r\n", feeding));
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeValuesWithAndWithoutCas(Feeding feeding) {
    assertEquals(List.of("Values[k/5/-=abc]"), decode("VALUE k 5 3\r\nabc\r\nEND\r\n", feeding));
    assertEquals(List.of("Values[k/4294967295/18446744073709551614=abc]"),
        decode("VALUE k 4294967295 3 18446744073709551614\r\nabc\r\nEND\r\n", feeding));
    assertEquals(List.of("Values[a/0/-=, b/1/-=x\r\nEND\r\n]"),
        decode("VALUE a 0 0\r\n\r\nVALUE b 1 8\r\nx\r\nEND\r\n\r\nEND\r\n", feeding));
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeABareEndAsNoValues(Feeding feeding) {
    assertEquals(List.of("Values[]"), decode("END\r\n", feeding));
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeStatLinesInOrder(Feeding feeding) {
    DecoderFeed feed = new DecoderFeed();
    byte[] input = bytes("STAT pid 16705\r\nSTAT version 1.6.18\r\nSTAT spaced a b \r\nSTAT bare\r\nEND\r\n");
    List<Object> out = feed.feed(input, feeding.cuts(input.length, random));
    assertEquals(1, out.size());
    Map<String, String> stats = assertInstanceOf(MemcacheReply.StatsLines.class, out.get(0)).stats();
    assertEquals(List.of("pid", "version", "spaced", "bare"), List.copyOf(stats.keySet()));
    assertEquals(Map.of("pid", "16705", "version", "1.6.18", "spaced", "a b ", "bare", ""), stats);
    assertClean(feed);
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeIncrDecrNumbers(Feeding feeding) {
    assertEquals(List.of("Number[value=42]"), decode("42\r\n", feeding));
    assertEquals(List.of("Number[value=-1]"), decode("18446744073709551615\r\n", feeding));
    assertEquals(List.of("Number[value=9]"), decode("9  \r\n", feeding), "memcached may pad a shorter number");
  }

  @Test
  void shouldDecodeTwoPipelinedValues() {
    assertEquals(List.of("Values[a/0/-=one]", "Values[b/0/-=two]"),
        decode("VALUE a 0 3\r\none\r\nEND\r\nVALUE b 0 3\r\ntwo\r\nEND\r\n", Feeding.ALL_AT_ONCE));
  }

  @ParameterizedTest
  @EnumSource(Feeding.class)
  void shouldDecodeManyPipelinedRepliesOfEveryKind(Feeding feeding) {
    StringBuilder input = new StringBuilder();
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      input.append("STORED\r\nVALUE key").append(i).append(" ").append(i).append(" 2 ").append(i)
          .append("\r\nv").append(i % 10).append("\r\nEND\r\n").append(i).append("\r\nEND\r\n")
          .append("STAT n ").append(i).append("\r\nEND\r\nSERVER_ERROR out of memory\r\n");
      expected.append("Status[word=STORED]|Values[key").append(i).append("/").append(i).append("/").append(i)
          .append("=v").append(i % 10).append("]|Number[value=").append(i).append("]|Values[]|StatsLines[stats={n=")
          .append(i).append("}]|Error[kind=SERVER_ERROR, message=out of memory]|");
    }
    assertEquals(expected.toString(), String.join("|", decode(input.toString(), feeding)) + "|");
  }

  @Test
  void shouldDecodeOneMegabyteAndTenMegabyteValuesSplitAnywhere() {
    for (int size : new int[] {1024 * 1024, 10 * 1024 * 1024}) {
      byte[] data = new byte[size];
      random.nextBytes(data);
      byte[] input = valueReply("big", data);
      int header = ("VALUE big 0 " + size + "\r\n").length();
      // Cuts inside the header, just after it, anywhere in the data, between the data and its CR, between CR
      // and LF, and inside END.
      int[][] cutSets = {
          {3, header - 1, header, header + size, header + size + 1, header + size + 3},
          DecoderFeed.randomCuts(input.length, random, 20),
          DecoderFeed.allAtOnce(input.length)};
      for (int[] cuts : cutSets) {
        DecoderFeed feed = new DecoderFeed();
        List<Object> out = feed.feed(input, cuts);
        assertEquals(1, out.size());
        MemcacheReply.Value value = assertInstanceOf(MemcacheReply.Values.class, out.get(0)).values().get(0);
        assertEquals("big", value.key());
        assertArrayEquals(data, value.data());
        assertClean(feed);
      }
    }
  }

  @Test
  void shouldFailAValueLargerThanTheLimitBeforeReadingIt() {
    DecoderFeed feed = new DecoderFeed(new MemcacheTextDecoder(8192, 100));
    List<Object> out = feed.feed(bytes("VALUE k 0 101\r\n"), new int[0]);
    assertEquals(List.of(failure("value length: 101 (expected: <= 100)")), out);
    assertClean(feed);
  }

  @Test
  void shouldFailALineLongerThanTheLimit() {
    DecoderFeed feed = new DecoderFeed(new MemcacheTextDecoder(16, 100));
    byte[] input = bytes("SERVER_ERROR " + "x".repeat(30) + "\r\n");
    assertEquals(List.of(failure("line length: 18 (expected: <= 16)")),
        feed.feed(input, DecoderFeed.byteByByte(input.length)));
    assertClean(feed);
    assertEquals(List.of("Error[kind=SERVER_ERROR, message=" + "x".repeat(3) + "]"),
        new DecoderFeed(new MemcacheTextDecoder(16, 100)).feed(bytes("SERVER_ERROR xxx\r\n"), new int[0])
            .stream().map(ReplyText::of).toList(), "16 bytes are fine");
  }

  @Test
  void shouldFailMalformedRepliesWithAGroupedProblem() {
    Map<String, String> cases = Map.ofEntries(
        Map.entry("HELLO\r\n", "unknown reply line"),
        Map.entry("\r\n", "unknown reply line"),
        Map.entry("STORED\n", "line not ended by CRLF"),
        Map.entry("VALUE k 0\r\n", "bad VALUE line"),
        Map.entry("VALUE k x 3\r\nabc\r\nEND\r\n", "bad VALUE line"),
        Map.entry("VALUE k 0 -3\r\n", "bad VALUE line"),
        Map.entry("VALUE k 4294967296 3\r\nabc\r\nEND\r\n", "bad VALUE line"),
        Map.entry("VALUE k 0 3 99999999999999999999\r\nabc\r\nEND\r\n", "bad VALUE line"),
        Map.entry("VALUE k 0 3\r\nabcd\r\nEND\r\n", "data block not followed by CRLF"),
        Map.entry("VALUE k 0 3\r\nabc\r\nSTORED\r\n", "expected VALUE or END after a data block"),
        Map.entry("STAT a 1\r\nVALUE k 0 1\r\n", "expected STAT or END after a STAT line"),
        Map.entry("STAT  1\r\nEND\r\n", "bad STAT line"),
        Map.entry("18446744073709551616\r\n", "bad number line"),
        Map.entry("12x\r\n", "bad number line"));
    for (Map.Entry<String, String> c : cases.entrySet()) {
      for (Feeding feeding : Feeding.values()) {
        assertEquals(List.of(failure(c.getValue()).toString()), decode(c.getKey(), feeding), c.getKey());
      }
    }
  }

  @Test
  void shouldSkipEverythingAfterAFailure() {
    assertEquals(List.of("Status[word=STORED]", failure("unknown reply line").toString()),
        decode("STORED\r\nGARBAGE\r\nSTORED\r\nVALUE k 0 1\r\nx\r\nEND\r\n", Feeding.ALL_AT_ONCE));
  }

  @Test
  void shouldReportAFailureMarkedTruncatedWhenTheChannelClosesMidReplyAndReleaseTheHalfReadValue() {
    DecoderFeed feed = new DecoderFeed();
    byte[] input = bytes("STORED\r\nVALUE k 0 100000\r\n" + "x".repeat(50000));
    assertEquals(List.of("Status[word=STORED]"),
        feed.feed(input, new int[] {10, 20, 40000}).stream().map(ReplyText::of).toList());
    assertEquals(List.of(new MemcacheDecoderFailure("connection closed in the middle of a reply", true)),
        feed.finish());
    assertEquals(0, feed.unreleased(), "the half-read value is released");
  }

  @Test
  void shouldReportNothingWhenTheChannelClosesBetweenReplies() {
    DecoderFeed feed = new DecoderFeed();
    feed.feed(bytes("STORED\r\n"), new int[0]);
    assertEquals(List.of(), feed.finish());
    assertEquals(0, feed.unreleased());
  }

  /** Decodes the whole input, checks that the channel ends clean, and returns the messages as text. */
  private List<String> decode(String input, Feeding feeding) {
    DecoderFeed feed = new DecoderFeed();
    byte[] bytes = bytes(input);
    List<Object> out = feed.feed(bytes, feeding.cuts(bytes.length, random));
    assertClean(feed);
    return out.stream().map(ReplyText::of).collect(Collectors.toList());
  }

  private static void assertClean(DecoderFeed feed) {
    assertEquals(List.of(), feed.finish(), "nothing left half-decoded");
    assertEquals(0, feed.unreleased(), "every buffer released");
  }

  static byte[] valueReply(String key, byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(data.length + 64);
    out.writeBytes(bytes("VALUE " + key + " 0 " + data.length + "\r\n"));
    out.writeBytes(data);
    out.writeBytes(bytes("\r\nEND\r\n"));
    return out.toByteArray();
  }

  private static MemcacheDecoderFailure failure(String problem) {
    return new MemcacheDecoderFailure(problem, false);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
