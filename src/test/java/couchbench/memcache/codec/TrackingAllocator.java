package couchbench.memcache.codec;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;

/** Remembers every buffer it hands out, so a test can check that all were released. */
final class TrackingAllocator extends AbstractByteBufAllocator {

  private final List<ByteBuf> allocated = new ArrayList<>();

  TrackingAllocator() {
    super(false);
  }

  @Override
  protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
    return track(UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity));
  }

  @Override
  protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
    return track(UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity));
  }

  @Override
  public boolean isDirectBufferPooled() {
    return false;
  }

  /** @return how many buffers handed out are not yet released */
  long unreleased() {
    return allocated.stream().filter(buf -> buf.refCnt() > 0).count();
  }

  private ByteBuf track(ByteBuf buf) {
    allocated.add(buf);
    return buf;
  }
}
