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

  /** A tally on the JVM's clocks: {@link System#nanoTime()}, and the process's CPU time. */
  public ConnTally() {
    this(System::nanoTime, ConnTally::cpuNanos);
  }

  /**
   * A tally on given clocks, for a test to know what the figures must be.
   *
   * @param clock the time now, in nanoseconds
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

  /** @return connections opened */
  public long connections() {
    return connectionTimes.count() + open.get();
  }

  /** @return most connections open at once */
  public int mostOpen() {
    return mostOpen.get();
  }

  /** @return requests sent */
  public long requests() {
    return requests.get();
  }

  /** @return replies received, whatever their status */
  public long replies() {
    return replyTimes.count();
  }

  /** @return requests that got no reply */
  public long unansweredCount() {
    return noReply.get();
  }

  /** @return requests that failed, Gatling's KO count */
  public long failedCount() {
    return failed.get();
  }

  /**
   * Replies by status class.
   *
   * @param statusClass 1 for 1xx ... 5 for 5xx, 0 for anything else
   * @return how many
   */
  public long statusClass(int statusClass) {
    return statusClasses.get(statusClass);
  }

  /** @return seconds from the first connection's start to the last one's end, httperf's test-duration */
  public double seconds() {
    long start = firstStart.get();
    long end = lastEnd.get();
    return start == UNSET || end == UNSET ? 0 : (end - start) / 1e9;
  }

  /** @return CPU time of the Gatling JVM, user and system, from the first connection's start to the last one's end */
  public double cpuSeconds() {
    long start = cpuAtFirstStart.get();
    long end = cpuAtLastEnd.get();
    return start == UNSET || end == UNSET ? 0 : Math.max(0, end - start) / 1e9;
  }

  /** @return connection times, in nanoseconds */
  public Samples connectionTimes() {
    return connectionTimes;
  }

  /** @return reply times, in nanoseconds */
  public Samples replyTimes() {
    return replyTimes;
  }

  /** @return reply body sizes, in bytes */
  public Samples replySizes() {
    return replySizes;
  }

  /**
   * httperf's reply rate samples: replies in each full window of {@code window} seconds from the
   * first connection's start, divided by the window; a last, partial window is left out, as httperf does.
   *
   * @param windowSeconds the sampling period, 5 for httperf
   * @return one rate per full window, in replies per second
   */
  public Samples.Stats replyRate(int windowSeconds) {
    long[] counts = repliesPerWindow(windowSeconds);
    Arrays.sort(counts);
    return Samples.Stats.of(counts).dividedBy(windowSeconds);
  }

  /**
   * The same samples in the order they were taken, for a chart of the rate over the run.
   *
   * @param windowSeconds the sampling period, 5 for httperf
   * @return replies per second in each full window, the first window first
   */
  public double[] replyRateOverTime(int windowSeconds) {
    return Arrays.stream(repliesPerWindow(windowSeconds)).mapToDouble(count -> count / (double) windowSeconds)
        .toArray();
  }

  /** @return the JVM's CPU time so far, in nanoseconds; 0 where the JVM cannot tell */
  private static long cpuNanos() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os) {
      return Math.max(0, os.getProcessCpuTime());
    }
    return 0;
  }

  private long[] repliesPerWindow(int windowSeconds) {
    long start = firstStart.get();
    int windows = (int) Math.floor(seconds() / windowSeconds);
    long[] counts = new long[windows];
    long window = windowSeconds * 1_000_000_000L;
    for (long instant : replyInstants.sorted()) {
      long index = (instant - start) / window;
      if (index < windows) {
        counts[(int) index]++;
      }
    }
    return counts;
  }
}
