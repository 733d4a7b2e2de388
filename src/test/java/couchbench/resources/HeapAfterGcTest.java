package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class HeapAfterGcTest {

  @Test
  void shouldTellTheHeapTheLastCollectionLeftNotTheGarbageMadeSince() throws InterruptedException {
    try (HeapAfterGc heap = HeapAfterGc.listen()) {
      System.gc();
      OptionalLong collected = waitForOne(heap);
      assertTrue(collected.isPresent(), "a collection heard");
      List<byte[]> garbage = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        garbage.add(new byte[1 << 20]); // 64 MB made after it, in use until the next collection
      }
      long inUse = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();

      assertTrue(collected.getAsLong() > 0 && collected.getAsLong() < inUse - (32L << 20),
          "after GC " + collected.getAsLong() + " bytes, in use since " + inUse + " with " + garbage.size()
              + " MB more");
    }
  }

  // The notification comes on the JVM's own thread after the collection ends.
  private static OptionalLong waitForOne(HeapAfterGc heap) throws InterruptedException {
    for (int tries = 0; tries < 100 && heap.bytes().isEmpty(); tries++) {
      Thread.sleep(50);
    }
    return heap.bytes();
  }
}
