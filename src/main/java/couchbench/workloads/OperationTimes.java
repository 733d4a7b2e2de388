package couchbench.workloads;

import couchbench.gatling.Pacing;
import couchbench.results.Histograms;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Every operation's latency on two clocks, in nanoseconds, as YCSB's {@code measurement.interval=both} reports them:
 * from its intended start (the schedule's, under -Dtarget) and from its actual start, to its end. A stall then shows
 * in the intended latencies of every operation queued behind it, and only in its own actual one. Without -Dtarget the
 * two starts are one. Operations are counted by outcome; conflicts and torn reads apart from other failures.
 */
public final class OperationTimes {

  private final Map<String, SystemClocks> bySystem = new ConcurrentHashMap<>();

  /** How an operation ended. */
  enum Outcome { OK, CONFLICT, TORN, FAILED }

  /** One operation's counts and histograms. */
  private static final class Clocks {
    final Histogram intended = new ConcurrentHistogram(3);
    final Histogram actual = new ConcurrentHistogram(3);
    final LongAdder ok = new LongAdder();
    final LongAdder conflicts = new LongAdder();
    final LongAdder torn = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder late = new LongAdder();
    final LongAccumulator maxLag = new LongAccumulator(Math::max, 0);
  }

  /**
   * One system's: every operation's clocks, made with it so that recording looks them up without a lock or a new
   * object; the first intended start and the last end of its operations.
   */
  private static final class SystemClocks {
    final Map<Operation, Clocks> byOperation = new EnumMap<>(Operation.class);
    final LongAccumulator first = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator last = new LongAccumulator(Math::max, Long.MIN_VALUE);

    SystemClocks() {
      for (Operation operation : Operation.values()) {
        byOperation.put(operation, new Clocks());
      }
    }
  }

  /**
   * Records one operation; only successful ones' latencies go into the histograms.
   *
   * @param system "couchdb" or "memcache"
   * @param operation what it was
   * @param outcome how it ended
   * @param intendedStart its intended start, System.nanoTime()
   * @param actualStart when it was sent
   * @param end when its reply was judged
   */
  void record(String system, Operation operation, Outcome outcome, long intendedStart, long actualStart, long end) {
    SystemClocks systemClocks = bySystem.computeIfAbsent(system, name -> new SystemClocks());
    Clocks clocks = systemClocks.byOperation.get(operation);
    systemClocks.first.accumulate(intendedStart);
    systemClocks.last.accumulate(end);
    long lag = actualStart - intendedStart;
    if (lag > Pacing.LATE_NANOS) {
      clocks.late.increment();
    }
    clocks.maxLag.accumulate(lag);
    switch (outcome) {
      case OK -> {
        clocks.ok.increment();
        clocks.intended.recordValue(Math.max(0, end - intendedStart));
        clocks.actual.recordValue(Math.max(0, end - actualStart));
      }
      case CONFLICT -> clocks.conflicts.increment();
      case TORN -> clocks.torn.increment();
      case FAILED -> clocks.failed.increment();
    }
  }

  /**
   * @param system "couchdb" or "memcache"
   * @param operations the operations it ran, in order
   * @return their figures; an operation never drawn has zero counts
   */
  List<WorkloadFigures.OperationFigures> figures(String system, List<Operation> operations) {
    List<WorkloadFigures.OperationFigures> figures = new ArrayList<>();
    for (Operation operation : operations) {
      Clocks clocks = bySystem.getOrDefault(system, new SystemClocks()).byOperation.get(operation);
      figures.add(new WorkloadFigures.OperationFigures(operation.word(), clocks.ok.sum(), clocks.conflicts.sum(),
          clocks.torn.sum(), clocks.failed.sum(), clocks.late.sum(), clocks.maxLag.get() / 1e6,
          Histograms.encode(clocks.intended), Histograms.encode(clocks.actual)));
    }
    return figures;
  }

  /** @return seconds from the system's first intended start to its last end; 0 when it ran nothing */
  double seconds(String system) {
    SystemClocks span = bySystem.get(system);
    return span == null || span.last.get() < span.first.get() ? 0 : (span.last.get() - span.first.get()) / 1e9;
  }
}
