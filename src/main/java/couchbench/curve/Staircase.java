package couchbench.curve;

import couchbench.gatling.Pacing;
import couchbench.results.LiveRoute;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.LongUnaryOperator;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * One system's staircase as it runs: the step under way (its rate, its start, its measured part), each virtual user's
 * intended starts at that rate, and what ended in each measured part. At the end of a step's measured part (and a
 * moment for the replies of its last operations) a thread of its own judges the step and starts the next, or ends the
 * staircase: the users' loop runs while {@link #running}.
 */
public final class Staircase {

  /** How long after a step's measured part its judgement waits, for what ended in it to be recorded. */
  private static final long GRACE_NANOS = 250_000_000;

  private final CurvePlan plan;
  private final RateSearch search;
  private final int threads;
  private final String system;
  private final Consumer<String> say;
  private final List<StepFigures> steps = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService judge = Executors.newSingleThreadScheduledExecutor(task -> {
    Thread thread = new Thread(task, "couchbench-staircase");
    thread.setDaemon(true);
    return thread;
  });
  private volatile Step step;
  private volatile boolean running = true;

  /**
   * A step under way: its rate and clock, and what ended in its measured part. Each recording thread (an event loop)
   * times its operations into latencies of its own, so that recording never contends across cores; the judge adds
   * them up.
   */
  private static final class Step {
    final int index;
    final double target;
    final long start;
    final long measuredFrom;
    final long measuredTo;
    final long periodNanos;
    final List<Latencies> byThread = new CopyOnWriteArrayList<>();
    final ThreadLocal<Latencies> mine = ThreadLocal.withInitial(() -> {
      Latencies latencies = new Latencies();
      byThread.add(latencies);
      return latencies;
    });
    final LongAdder ended = new LongAdder();
    final LongAdder late = new LongAdder();
    final LongAdder ok = new LongAdder();
    final LongAdder failed = new LongAdder();

    Step(int index, double target, long start, CurvePlan plan, int threads) {
      this.index = index;
      this.target = target;
      this.start = start;
      this.measuredFrom = start + plan.settle().toNanos();
      this.measuredTo = measuredFrom + plan.measure().toNanos();
      this.periodNanos = (long) (threads * 1e9 / target);
    }

    /** @return every thread's latencies of one clock, added up, microseconds */
    Histogram total(boolean fromIntended) {
      Histogram total = new Histogram(3);
      for (Latencies latencies : byThread) {
        total.add((fromIntended ? latencies.intended : latencies.actual).getIntervalHistogram());
      }
      return total;
    }
  }

  /** One thread's latencies in one step, from the intended start and from the actual one, microseconds. */
  private static final class Latencies {
    final SingleWriterRecorder intended = new SingleWriterRecorder(3);
    final SingleWriterRecorder actual = new SingleWriterRecorder(3);
  }

  /**
   * @param plan the staircase
   * @param system the system it runs on, for its lines
   * @param threads the virtual users sharing each step's rate
   * @param say where each step's line goes (the console)
   */
  public Staircase(CurvePlan plan, String system, int threads, Consumer<String> say) {
    this.plan = plan;
    this.search = plan.search(threads);
    this.system = system;
    this.threads = threads;
    this.say = say;
  }

  /** Starts the first step now, once: call as the users start. */
  public synchronized void begin() {
    if (step == null) {
      start(new Step(0, search.first(), System.nanoTime(), plan, threads));
    }
  }

  private void start(Step next) {
    step = next;
    LiveRoute.current().stepBegins(system, next.index + 1, next.target);
    judge.schedule(this::judge, next.measuredTo - System.nanoTime() + GRACE_NANOS, TimeUnit.NANOSECONDS);
  }

  /** @return whether a step is under way: the users' loop runs while it is */
  public boolean running() {
    return running;
  }

  /**
   * @param user the virtual user's number, from 0
   * @return its intended starts: each call the next, one period (threads / rate) after the last, the users spread
   *     over the period; from the start of each new step
   */
  public LongUnaryOperator intendedStarts(int user) {
    int[] stepSeen = {-1};
    long[] count = {0};
    long offset = user % threads;
    return now -> {
      Step current = step;
      long first = current.start + offset * current.periodNanos / threads;
      if (current.index != stepSeen[0]) {
        // A user still busy with the last step joins this one at its next slot: the slots it missed were the last
        // step's backlog, which this step's settling is there to absorb, not this step's.
        stepSeen[0] = current.index;
        count[0] = now <= first ? 0 : (now - first + current.periodNanos - 1) / current.periodNanos;
      }
      return first + count[0]++ * current.periodNanos;
    };
  }

  /**
   * An operation ended: counted in the step whose measured part it ended in.
   *
   * @param ok whether it succeeded: its latency is timed
   * @param failed whether it failed; neither, it ended as the workload allows (a write refused for a conflict)
   * @param intendedStart its intended start, System.nanoTime()
   * @param actualStart when it was sent
   * @param end when it ended
   */
  public void record(boolean ok, boolean failed, long intendedStart, long actualStart, long end) {
    if (ok || failed) {
      // Live metrics take every operation, the steps' settling parts too; the step's figures only its measured part.
      LiveRoute.current().intendedTime(system, ok, Math.max(0, end - intendedStart));
    }
    Step current = step;
    if (current == null || end < current.measuredFrom || end >= current.measuredTo) {
      return;
    }
    current.ended.increment();
    if (actualStart - intendedStart > Pacing.LATE_NANOS) {
      current.late.increment();
    }
    if (ok) {
      current.ok.increment();
      Latencies latencies = current.mine.get();
      latencies.intended.recordValue(Math.max(0, end - intendedStart) / 1000);
      latencies.actual.recordValue(Math.max(0, end - actualStart) / 1000);
    } else if (failed) {
      current.failed.increment();
    }
  }

  // Judges the step that ended; whatever goes wrong here ends the staircase with a line, never leaves the users
  // looping on the last step's rate (an exception in a scheduled task is otherwise swallowed).
  private void judge() {
    try {
      judgeStep();
    } catch (RuntimeException e) {
      running = false;
      judge.shutdown();
      say.accept("curve: " + system + " stopped: the step could not be judged (" + e + ")");
    }
  }

  private void judgeStep() {
    Step done = step;
    double seconds = plan.measure().toNanos() / 1e9;
    double achieved = done.ended.sum() / seconds;
    Histogram intended = done.total(true);
    StepFigures figures = StepFigures.judged(done.target, achieved, done.ok.sum(), done.failed.sum(),
        done.late.sum(), intended, done.total(false), plan.goal());
    boolean met = figures.met();
    steps.add(figures);
    say.accept(String.format(Locale.ROOT, "curve: %s step %d: asked %,.0f/s, achieved %,.0f/s, p99 %.2f ms from the"
            + " intended start%s", system, done.index + 1, done.target, achieved,
        intended.getValueAtPercentile(99) / 1000.0, plan.goal().map(goal -> met ? ", meets " + goal.describe()
            : ", misses " + goal.describe() + (achieved < CurvePlan.ACHIEVED_SHARE * done.target
                ? " (achieved below 90% of the rate asked)" : "")).orElse("")));
    OptionalDouble next = search.next(done.target, met);
    if (next.isPresent()) {
      start(new Step(done.index + 1, next.getAsDouble(), System.nanoTime(), plan, threads));
    } else {
      running = false;
      judge.shutdown();
    }
  }

  /** @return the steps judged so far, in the order they ran */
  public List<StepFigures> steps() {
    return List.copyOf(steps);
  }
}
