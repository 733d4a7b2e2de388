package couchbench.viewquery;

import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * What the connections of a ViewQuery run did, recorded in-process as the virtual users go: each
 * user is one connection, so a user's lifetime (first action to last) stands for httperf's
 * connection time, and each request's time around Gatling's HTTP action for its reply time; and the Gatling JVM's
 * CPU time over the same span, from the first connection's start to the last one's end. One tally per round. Shared
 * by all virtual users, hence atomic.
 */
public final class ConnTally {

  private static final long UNSET = Long.MIN_VALUE;
  private static final long MILLI = 1_000_000;
  // The nanosecond clock's readings as epoch nanoseconds: monotonic, and comparable between processes.
  private static final long EPOCH_NANOS_AT_NANO_ZERO = System.currentTimeMillis() * MILLI - System.nanoTime();

  private final LongSupplier clock;
  private final LongSupplier cpuClock;
  private final AtomicLong firstStart = new AtomicLong(UNSET);
  private final AtomicLong lastEnd = new AtomicLong(UNSET);
  private final AtomicLong cpuAtFirstStart = new AtomicLong(UNSET);
  private final AtomicLong cpuAtLastEnd = new AtomicLong(UNSET);
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger mostOpen = new AtomicInteger();
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong noReply = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLongArray statusClasses = new AtomicLongArray(6);
  private final Samples connectionTimes = new Samples();
  private final Samples replyTimes = new Samples();
  private final Samples replySizes = new Samples();
  private final Samples replyInstants = new Samples();

  /**
   * A tally on the JVM's clocks: {@link System#nanoTime()}, set to the epoch once, so that the times of injectors on
   * one clock (NTP's) line up; and the process's CPU time.
   */
  public ConnTally() {
    this(() -> EPOCH_NANOS_AT_NANO_ZERO + System.nanoTime(), ConnTally::cpuNanos);
  }

  /**
   * A tally on given clocks, for a test to know what the figures must be.
   *
   * @param clock the time now, in nanoseconds since the epoch
   * @param cpuClock the CPU time used so far, in nanoseconds
   */
  ConnTally(LongSupplier clock, LongSupplier cpuClock) {
    this.clock = clock;
    this.cpuClock = cpuClock;
  }

  /**
   * Marks a connection's (virtual user's) start.
   *
   * @return the start, in the clock's nanoseconds, to hand back to {@link #connectionEnded}
   */
  public long connectionStarted() {
    long now = clock.getAsLong();
    if (firstStart.compareAndSet(UNSET, now)) {
      cpuAtFirstStart.set(cpuClock.getAsLong());
    }
    mostOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
    return now;
  }

  /**
   * Marks a connection's end, after its last reply.
   *
   * @param started what {@link #connectionStarted()} returned for it
   */
  public void connectionEnded(long started) {
    long now = clock.getAsLong();
    open.decrementAndGet();
    lastEnd.accumulateAndGet(now, Math::max);
    // The process's CPU clock only goes forward: the largest reading is the last end's.
    cpuAtLastEnd.accumulateAndGet(cpuClock.getAsLong(), Math::max);
    connectionTimes.add(now - started);
  }

  /**
   * Marks a request about to be sent.
   *
   * @return the send time, in the clock's nanoseconds, to hand back with its outcome
   */
  public long requestSent() {
    requests.incrementAndGet();
    return clock.getAsLong();
  }

  /**
   * Records a reply.
   *
   * @param sent what {@link #requestSent()} returned
   * @param status its HTTP status
   */
  public void countReply(long sent, int status) {
    long now = clock.getAsLong();
    replyTimes.add(now - sent);
    replyInstants.add(now);
    int statusClass = status / 100;
    statusClasses.incrementAndGet(statusClass >= 1 && statusClass <= 5 ? statusClass : 0);
  }

  /**
   * Records a reply's size.
   *
   * @param bytes its body's length
   */
  public void countReplySize(int bytes) {
    replySizes.add(bytes);
  }

  /** Records a request that got no reply: refused, reset, timed out. */
  public void countUnanswered() {
    noReply.incrementAndGet();
  }

  /** Records a request that failed a check (status, JSON, total_rows) or got no reply. */
  public void countFailed() {
    failed.incrementAndGet();
  }

  /**
   * @return what the connections did, as results.json keeps it; call once they have all ended
   */
  public ConnFigures figures() {
    long start = firstStart.get();
    long end = lastEnd.get();
    long[] statuses = new long[statusClasses.length()];
    Arrays.setAll(statuses, statusClasses::get);
    return new ConnFigures(connectionTimes.count() + open.get(), requests.get(), noReply.get(), failed.get(),
        statuses, mostOpen.get(), cpuSeconds(), start == UNSET ? null : Math.floorDiv(start, MILLI),
        end == UNSET ? null : Math.floorDiv(end, MILLI), micros(connectionTimes), micros(replyTimes),
        replySizes.sorted(), Arrays.stream(replyInstants.sorted()).map(instant -> Math.floorDiv(instant, MILLI))
            .toArray());
  }

  /** CPU time of the Gatling JVM, user and system, from the first connection's start to the last one's end. */
  private double cpuSeconds() {
    long start = cpuAtFirstStart.get();
    long end = cpuAtLastEnd.get();
    return start == UNSET || end == UNSET ? 0 : Math.max(0, end - start) / 1e9;
  }

  private static long[] micros(Samples nanos) {
    return Arrays.stream(nanos.sorted()).map(value -> value / 1_000).toArray();
  }

  /** @return the JVM's CPU time so far, in nanoseconds; 0 where the JVM cannot tell */
  private static long cpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }
}
