package couchbench.resources;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * This JVM's heap as the last garbage collection left it, the figure a GC log prints after "->": the heap in use
 * sampled at any moment holds garbage not collected yet (a sawtooth), the heap after a collection is what a leak makes
 * rise. Each collector's notifications are heard from {@link #listen} to {@link #close}.
 */
final class HeapAfterGc implements AutoCloseable {

  private final Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(pool -> pool.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
  private final List<NotificationEmitter> heard = new ArrayList<>();
  private final NotificationListener listener = this::collected;
  private volatile long bytes = -1;

  private HeapAfterGc() {}

  /** @return one that hears every collector of this JVM from now on */
  static HeapAfterGc listen() {
    HeapAfterGc heap = new HeapAfterGc();
    for (GarbageCollectorMXBean collector : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (collector instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(heap.listener, null, null);
        heap.heard.add(emitter);
      }
    }
    return heap;
  }

  /** @return the heap's pools in use after the last collection, in bytes; empty before the first one */
  OptionalLong bytes() {
    long last = bytes;
    return last < 0 ? OptionalLong.empty() : OptionalLong.of(last);
  }

  // Called on the JVM's notification thread, once a collection has ended.
  private void collected(Notification notification, Object handback) {
    if (!notification.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
      return;
    }
    GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from(
        (CompositeData) notification.getUserData());
    long used = 0;
    for (var pool : info.getGcInfo().getMemoryUsageAfterGc().entrySet()) {
      if (heapPools.contains(pool.getKey())) {
        used += pool.getValue().getUsed();
      }
    }
    bytes = used;
  }

  @Override
  public void close() {
    for (NotificationEmitter emitter : heard) {
      try {
        emitter.removeNotificationListener(listener);
      } catch (ListenerNotFoundException gone) {
        // nothing left to remove
      }
    }
  }
}
