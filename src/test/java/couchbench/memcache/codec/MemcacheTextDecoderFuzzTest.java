package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Random valid reply streams, and mutations of them (truncated, bytes flipped, garbage inserted, lengths
 * changed, bytes cut out), fed in random fragments: the decoder never throws, never stalls, turns every input
 * into replies or replies then one failure, and releases every buffer.
 */
class MemcacheTextDecoderFuzzTest {

  private static final int ITERATIONS = 4000;

  /** A generated stream: its bytes, its replies as text, and where each reply ends. */
  private record Stream(byte[] bytes, List<String> replies, List<Integer> ends) {}

  private final Random random = new Random(7_2024_06_11L);

  @Test
  void shouldTurnEveryValidStreamIntoItsRepliesHoweverItIsCut() {
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 0; i < ITERATIONS; i++) {
        Stream stream = stream();
        DecoderFeed feed = new DecoderFeed(new MemcacheTextDecoder(8192, 4096));
        List<Object> out = new ArrayList<>(feed.feed(stream.bytes(), cuts(stream.bytes().length)));
        out.addAll(feed.finish());
        assertEquals(stream.replies(), out.stream().map(ReplyText::of).toList());
        assertEquals(0, feed.unreleased());
      }
    });
  }

  @Test
  void shouldEndATruncatedStreamWithItsCompleteRepliesThenATruncationFailure() {
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      for (int i = 0; i < ITERATIONS; i++) {
        Stream stream = stream();
        int length = random.nextInt(stream.bytes().length + 1);
        byte[] input = Arrays.copyOf(stream.bytes(), length);
        DecoderFeed feed = new DecoderFeed(new MemcacheTextDecoder(8192, 4096));
        List<Object> out = new ArrayList<>(feed.feed(input, cuts(length)));
        out.addAll(feed.finish());
        int complete = (int) stream.ends().stream().filter(end -> end <= length).count();
        List<String> expected = new ArrayList<>(stream.replies().subList(0, complete));
        boolean atBoundary = length == 0 || stream.ends().contains(length);
        if (!atBoundary) {
          expected.add(new MemcacheDecoderFailure("connection closed in the middle of a reply", true).toString());
        }
        assertEquals(expected, out.stream().map(ReplyText::of).toList(), "cut at " + length);
        assertEquals(0, feed.unreleased());
      }
    });
  }

  @Test
  void shouldSurviveMutatedStreamsWithRepliesThenAtMostOneFailure() {
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
      int failures = 0;
      for (int i = 0; i < ITERATIONS; i++) {
        byte[] input = mutate(stream().bytes());
        DecoderFeed feed = new DecoderFeed(new MemcacheTextDecoder(8192, 4096));
        List<Object> out = new ArrayList<>(feed.feed(input, cuts(input.length)));
        out.addAll(feed.finish());
        DecoderFeed whole = new DecoderFeed(new MemcacheTextDecoder(8192, 4096));
        List<Object> atOnce = new ArrayList<>(whole.feed(input, new int[0]));
        atOnce.addAll(whole.finish());
        // No desync: what a byte stream means cannot depend on how the network cut it.
        assertEquals(atOnce.stream().map(ReplyText::of).toList(), out.stream().map(ReplyText::of).toList());
        assertEquals(0, whole.unreleased());
        for (int m = 0; m < out.size(); m++) {
          Object msg = out.get(m);
          if (msg instanceof MemcacheDecoderFailure) {
            assertEquals(out.size() - 1, m, "a failure is the last message");
            failures++;
          } else {
            assertInstanceOf(MemcacheReply.class, msg);
          }
        }
        assertEquals(0, feed.unreleased());
      }
      assertTrue(failures > ITERATIONS / 2, "most mutations are caught: " + failures);
    });
  }

  /** 1 to 6 replies of random kinds; data blocks hold any bytes, CR and LF included. */
  private Stream stream() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    List<String> replies = new ArrayList<>();
    List<Integer> ends = new ArrayList<>();
    int count = 1 + random.nextInt(6);
    for (int r = 0; r < count; r++) {
      switch (random.nextInt(8)) {
        case 0 -> {
          MemcacheReply.StatusWord word = pick(MemcacheReply.StatusWord.values());
          write(bytes, word + "\r\n");
          replies.add("Status[word=" + word + "]");
        }
        case 1 -> {
          MemcacheReply.ErrorKind kind = pick(MemcacheReply.ErrorKind.values());
          String message = random.nextBoolean() ? "" : "some text " + random.nextInt(100);
          write(bytes, kind + (message.isEmpty() ? "" : " " + message) + "\r\n");
          replies.add("Error[kind=" + kind + ", message=" + message + "]");
        }
        case 2 -> {
          long number = random.nextLong();
          write(bytes, Long.toUnsignedString(number) + "\r\n");
          replies.add("Number[value=" + number + "]");
        }
        case 3 -> {
          int stats = random.nextInt(4);
          StringBuilder text = new StringBuilder("StatsLines[stats={");
          for (int s = 0; s < stats; s++) {
            write(bytes, "STAT s" + s + " " + s * 7 + "\r\n");
            text.append(s == 0 ? "" : ", ").append("s").append(s).append("=").append(s * 7);
          }
          write(bytes, "END\r\n");
          replies.add(stats == 0 ? "Values[]" : text.append("}]").toString());
        }
        case 6, 7 -> {
          MetaReply.Code code = pick(MetaReply.Code.values());
          int opaque = random.nextBoolean() ? -1 : random.nextInt(Integer.MAX_VALUE);
          String flags = pick(new String[] {"", "c12 t-1", "W X Z", "kfoo f5 s3"})
              + (opaque < 0 ? "" : " O" + opaque);
          flags = code == MetaReply.Code.ME ? "foo exp=-1 la=0" : flags.strip();
          opaque = code == MetaReply.Code.ME ? -1 : opaque;
          byte[] data = code == MetaReply.Code.VA ? new byte[random.nextInt(40)] : null;
          for (int d = 0; data != null && d < data.length; d++) {
            data[d] = (byte) "ab\r\nVA 3 MN".charAt(random.nextInt(11));
          }
          write(bytes, code + (code == MetaReply.Code.VA ? " " + data.length : "") + (flags.isEmpty() ? "" : " " + flags)
              + "\r\n");
          if (data != null) {
            bytes.writeBytes(data);
            write(bytes, "\r\n");
          }
          replies.add(ReplyText.meta(code, flags, opaque, data));
        }
        default -> {
          int values = random.nextInt(4);
          boolean cas = random.nextBoolean();
          List<MemcacheReply.Value> list = new ArrayList<>();
          for (int v = 0; v < values; v++) {
            byte[] data = new byte[random.nextInt(40)];
            for (int d = 0; d < data.length; d++) {
              data[d] = (byte) "ab\r\nEND VALUE9".charAt(random.nextInt(14));
            }
            long unique = cas ? random.nextLong() & Long.MAX_VALUE : -1;
            write(bytes, "VALUE k" + v + " " + v + " " + data.length + (cas ? " " + unique : "") + "\r\n");
            bytes.writeBytes(data);
            write(bytes, "\r\n");
            list.add(new MemcacheReply.Value("k" + v, v, data, unique));
          }
          write(bytes, "END\r\n");
          replies.add(ReplyText.of(new MemcacheReply.Values(list)));
        }
      }
      ends.add(bytes.size());
    }
    return new Stream(bytes.toByteArray(), replies, ends);
  }

  private byte[] mutate(byte[] input) {
    byte[] out = input.clone();
    int at = random.nextInt(out.length);
    switch (random.nextInt(5)) {
      case 0 -> {
        return Arrays.copyOf(out, at);
      }
      case 1 -> {
        out[at] = (byte) random.nextInt(256);
        return out;
      }
      case 2 -> {
        byte[] garbage = new byte[1 + random.nextInt(20)];
        random.nextBytes(garbage);
        return concat(Arrays.copyOf(out, at), garbage, Arrays.copyOfRange(out, at, out.length));
      }
      case 3 -> {
        // A different length in a VALUE line, or a huge one.
        String text = new String(out, StandardCharsets.ISO_8859_1);
        String replaced = text.replaceFirst("(VALUE \\S+ \\d+ |VA )\\d+",
            "$1" + (random.nextBoolean() ? random.nextInt(60) : random.nextInt(Integer.MAX_VALUE)));
        return replaced.getBytes(StandardCharsets.ISO_8859_1);
      }
      default -> {
        int to = Math.min(out.length, at + 1 + random.nextInt(10));
        return concat(Arrays.copyOf(out, at), Arrays.copyOfRange(out, to, out.length));
      }
    }
  }

  private int[] cuts(int length) {
    return random.nextInt(4) == 0 ? DecoderFeed.byteByByte(length)
        : DecoderFeed.randomCuts(length, random, random.nextInt(10));
  }

  private <T> T pick(T[] choices) {
    return choices[random.nextInt(choices.length)];
  }

  private static void write(ByteArrayOutputStream out, String text) {
    out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void shouldGenerateStreamsWithEveryKindOfReply() {
    String all = String.join("", IntStream.range(0, 200).mapToObj(i -> stream().replies().toString())
        .toList());
    for (String kind : List.of("Status", "Error", "Number", "StatsLines", "Values[]", "Values[k0", "Meta[VA", "Meta[MN",
        "Meta[ME")) {
      assertTrue(all.contains(kind), kind);
    }
    assertFalse(all.isEmpty());
  }
}
