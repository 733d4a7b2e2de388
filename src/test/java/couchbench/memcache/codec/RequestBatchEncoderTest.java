package couchbench.memcache.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import couchbench.memcache.codec.MetaRequest.Command;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelOption;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestBatchEncoderTest {

  private static final List<MemcacheRequest> MIXED = List.of(
      new MemcacheRequest.Store(StoreCommand.SET, "a", 3, 60, ascii("one"), 0, false),
      new MemcacheRequest.Retrieve(false, List.of("a", "b")),
      new MemcacheRequest.Delete("c", true),
      new MetaRequest(Command.SET, "d", false, "T0", ascii("two"), true, 7),
      MetaRequest.of(Command.GET, "e", "v", null),
      MetaRequest.noop());

  @Test
  void shouldWriteABatchInOneBufferAsTheEncodersWriteItsRequestsOneByOne() {
    EmbeddedChannel alone = new EmbeddedChannel(new MemcacheTextEncoder(), new MetaEncoder());
    MIXED.forEach(alone::writeOutbound);
    String oneByOne = String.join("", drain(alone));
    assertEquals("set a 3 60 3\r\none\r\nget a b\r\ndelete c noreply\r\nms d 3 T0 q O7\r\ntwo\r\nmg e v\r\nmn\r\n",
        oneByOne);
    EmbeddedChannel batched = new EmbeddedChannel(new RequestBatchEncoder());
    batched.writeOutbound(new RequestBatch(MIXED));
    assertEquals(List.of(oneByOne), drain(batched));
    assertFalse(batched.finish());
  }

  @Test
  void shouldWrapALargeDataBlockBetweenTheBuffersOfTheRequestsAroundIt() {
    byte[] big = new byte[MemcacheTextEncoder.WRAP_THRESHOLD];
    Arrays.fill(big, (byte) 'x');
    EmbeddedChannel channel = new EmbeddedChannel(new RequestBatchEncoder());
    channel.writeOutbound(new RequestBatch(List.of(
        new MemcacheRequest.Retrieve(false, List.of("a")),
        new MemcacheRequest.Store(StoreCommand.SET, "big", 0, 0, big, 0, false),
        MetaRequest.of(Command.SET, "m", "", big),
        new MemcacheRequest.Retrieve(false, List.of("z")))));
    List<ByteBuf> buffers = new ArrayList<>();
    for (ByteBuf buffer = channel.readOutbound(); buffer != null; buffer = channel.readOutbound()) {
      buffers.add(buffer);
    }
    assertEquals(7, buffers.size(), "line, data, CRLF, line, data, CRLF, line");
    assertEquals("get a\r\nset big 0 0 16384\r\n", text(buffers.get(0)));
    assertSame(big, buffers.get(1).array(), "wrapped, not copied");
    assertEquals("\r\nms m 16384\r\n", text(buffers.get(2)) + text(buffers.get(3)));
    assertSame(big, buffers.get(4).array(), "wrapped, not copied");
    assertEquals("\r\nget z\r\n", text(buffers.get(5)) + text(buffers.get(6)));
    buffers.forEach(ByteBuf::release);
    assertFalse(channel.finish());
  }

  @Test
  void shouldRefuseABatchWithAStatsGroupThatWouldAddACommandAndReleaseWhatItWrote() {
    TrackingAllocator allocator = new TrackingAllocator();
    EmbeddedChannel channel = new EmbeddedChannel(new RequestBatchEncoder());
    channel.config().setOption(ChannelOption.ALLOCATOR, allocator);
    assertThrows(EncoderException.class, () -> channel.writeOutbound(new RequestBatch(List.of(
        new MemcacheRequest.Retrieve(false, List.of("a")), new MemcacheRequest.Stats("items\r\nflush_all")))));
    assertEquals(0, allocator.unreleased());
    assertFalse(channel.finish());
  }

  private static List<String> drain(EmbeddedChannel channel) {
    List<String> written = new ArrayList<>();
    for (ByteBuf buffer = channel.readOutbound(); buffer != null; buffer = channel.readOutbound()) {
      written.add(text(buffer));
      buffer.release();
    }
    return written;
  }

  private static String text(ByteBuf buffer) {
    return buffer.toString(StandardCharsets.UTF_8);
  }

  private static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }
}
