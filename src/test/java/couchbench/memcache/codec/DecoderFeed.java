package couchbench.memcache.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** A decoder in an EmbeddedChannel, fed one fragment at a time, that checks nothing is leaked. */
final class DecoderFeed {

  private final TrackingAllocator allocator = new TrackingAllocator();
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final List<ByteBuf> inputs = new ArrayList<>();

  DecoderFeed(MemcacheTextDecoder decoder) {
    channel.config().setAllocator(allocator);
    channel.pipeline().addLast(decoder);
  }

  DecoderFeed() {
    this(new MemcacheTextDecoder());
  }

  /** Writes input cut at the given offsets, one fragment per write; returns what came out. */
  List<Object> feed(byte[] input, int[] cuts) {
    int from = 0;
    for (int cut : cuts) {
      write(Arrays.copyOfRange(input, from, cut));
      from = cut;
    }
    write(Arrays.copyOfRange(input, from, input.length));
    return drain();
  }

  /** Closes the channel (a truncated reply gives a failure then); returns what came out. */
  List<Object> finish() {
    channel.finish();
    return drain();
  }

  /** @return how many buffers, inputs and the decoder's own, still hold a reference */
  long unreleased() {
    return allocator.unreleased() + inputs.stream().filter(buf -> buf.refCnt() > 0).count();
  }

  private void write(byte[] fragment) {
    if (fragment.length == 0) {
      return; // Unpooled's shared empty buffer is never released: it would count as a leak
    }
    ByteBuf buf = Unpooled.wrappedBuffer(fragment);
    inputs.add(buf);
    channel.writeInbound(buf);
  }

  private List<Object> drain() {
    List<Object> out = new ArrayList<>();
    for (Object msg = channel.readInbound(); msg != null; msg = channel.readInbound()) {
      out.add(msg);
    }
    return out;
  }

  static int[] allAtOnce(int length) {
    return new int[0];
  }

  static int[] byteByByte(int length) {
    int[] cuts = new int[Math.max(0, length - 1)];
    for (int i = 0; i < cuts.length; i++) {
      cuts[i] = i + 1;
    }
    return cuts;
  }

  /** Up to count distinct cut points anywhere in 1..length-1, ascending. */
  static int[] randomCuts(int length, Random random, int count) {
    if (length < 2) {
      return new int[0];
    }
    return random.ints(count, 1, length).distinct().sorted().toArray();
  }
}
