package couchbench.query;

import couchbench.results.Progress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the server said of its work, per request name, as the load runs: Mango's execution_stats added up (where the
 * server sends them) and its warnings counted, with the first one's text.
 */
final class QueryTally {

  private final Map<String, Counts> byName = new ConcurrentHashMap<>();
  private final LongAdder ended = new LongAdder();
  private final LongAdder failed = new LongAdder();

  /** One request name's counts. */
  private static final class Counts {
    final LongAdder replies = new LongAdder();
    final LongAdder withStats = new LongAdder();
    final LongAdder docsExamined = new LongAdder();
    final LongAdder keysExamined = new LongAdder();
    final LongAdder resultsReturned = new LongAdder();
    final LongAdder warnings = new LongAdder();
    final AtomicReference<String> firstWarning = new AtomicReference<>("");
  }

  /**
   * Counts a reply.
   *
   * @param name its request name
   * @param stats its execution_stats: docs examined, keys examined, results returned; null without them
   * @param warning its warning, "" without one
   */
  void reply(String name, long[] stats, String warning) {
    Counts counts = byName.computeIfAbsent(name, any -> new Counts());
    counts.replies.increment();
    if (stats != null) {
      counts.withStats.increment();
      counts.docsExamined.add(stats[0]);
      counts.keysExamined.add(stats[1]);
      counts.resultsReturned.add(stats[2]);
    }
    if (!warning.isEmpty()) {
      counts.warnings.increment();
      counts.firstWarning.compareAndSet("", warning);
    }
  }

  /**
   * Counts a request ended, for the progress line.
   *
   * @param passed whether it passed its checks
   */
  void ended(boolean passed) {
    ended.increment();
    if (!passed) {
      failed.increment();
    }
  }

  /** @return requests ended so far, and failed, for the progress line */
  Progress.Counts counts() {
    return new Progress.Counts(ended.sum(), failed.sum());
  }

  /** @return each request name's figures */
  List<QueryFigures.ServerWork> figures() {
    List<QueryFigures.ServerWork> work = new ArrayList<>();
    byName.forEach((name, counts) -> work.add(new QueryFigures.ServerWork(name, counts.replies.sum(),
        counts.withStats.sum(), counts.docsExamined.sum(), counts.keysExamined.sum(), counts.resultsReturned.sum(),
        counts.warnings.sum(), counts.firstWarning.get())));
    work.sort((a, b) -> a.request().compareTo(b.request()));
    return work;
  }
}
