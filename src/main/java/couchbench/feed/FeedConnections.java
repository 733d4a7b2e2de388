package couchbench.feed;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The connections listeners held: open now, the most open at once, opened in all and dropped. Thread-safe. */
public final class FeedConnections {

  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger mostOpen = new AtomicInteger();
  private final AtomicLong opened = new AtomicLong();
  private final AtomicLong dropped = new AtomicLong();

  void connected() {
    opened.incrementAndGet();
    mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
  }

  void closed(boolean drop) {
    open.decrementAndGet();
    if (drop) {
      dropped.incrementAndGet();
    }
  }

  /** @return connections open now */
  public int openNow() {
    return open.get();
  }

  /** @return the most connections open at once */
  public int mostOpen() {
    return mostOpen.get();
  }

  /** @return connections opened in all, reconnections included */
  public long opened() {
    return opened.get();
  }

  /** @return connections that ended before their listener was done */
  public long dropped() {
    return dropped.get();
  }
}
