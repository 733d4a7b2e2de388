package couchbench.results;

import couchbench.startup.Console;
import couchbench.startup.OneLineException;
import couchbench.startup.RunClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The servers' own counters a run reads before its load and again after it, to be held against the requests the run
 * saw acknowledged (memcache cmd_set against the OK sets, say). A counter is a cross-check, not a requirement: one that
 * cannot be read is n/a with the reason, in one line when it happens, in results.json and on the page, and the run
 * goes on.
 */
final class ServerCounts {

  /** A counter read before the load; n/a, with why, when it could not be read. */
  private record Before(String counter, LongSupplier read, Long value, Instant at, List<String> requests,
      String notCounted) {}

  /** A counter read after the load; n/a, with why, when it could not be read before or after. */
  private record After(Long value, String notCounted) {}

  /** Every counter read again after the load, and when. */
  record Read(List<Before> before, List<After> after, Instant at) {

    /**
     * @param entries the run's entries, whose OK requests each counter should equal
     * @return each counter before and after against its requests, for results.json
     */
    List<Results.ServerCount> against(List<Results.Entry> entries) {
      List<Results.ServerCount> counts = new ArrayList<>();
      for (int i = 0; i < before.size(); i++) {
        Before counter = before.get(i);
        long acknowledged = Entries.okCount(entries, counter.requests());
        counts.add(after.get(i).value() == null
            ? Results.ServerCount.unavailable(counter.counter(), after.get(i).notCounted(), acknowledged,
                counter.requests())
            : new Results.ServerCount(counter.counter(), counter.value(), counter.at().toString(),
                after.get(i).value(), at.toString(), acknowledged, counter.requests()));
      }
      return counts;
    }
  }

  private final List<Before> counters = new ArrayList<>();

  /**
   * Reads a counter now, before the load.
   *
   * @param counter what is counted, e.g. "memcache cmd_set"
   * @param read reads it from the server; throws a {@link OneLineException} saying why it cannot
   * @param requests the request names whose OK requests it counts
   */
  synchronized void before(String counter, LongSupplier read, String... requests) {
    Instant now = Instant.ofEpochMilli(RunClock.millis());
    try {
      counters.add(new Before(counter, read, read.getAsLong(), now, List.of(requests), null));
    } catch (OneLineException e) {
      Console.say("server count: " + counter + " n/a (" + e.getMessage() + "): the run goes on, its acknowledged"
          + " requests not checked against the server");
      counters.add(new Before(counter, read, null, now, List.of(requests), e.getMessage()));
    }
  }

  /** @return every counter read again now, after the load; n/a (and one line) where it was before, or fails now */
  synchronized Read after() {
    List<Before> counted = List.copyOf(counters);
    List<After> after = counted.stream().map(ServerCounts::readAfter).toList();
    return new Read(counted, after, Instant.ofEpochMilli(RunClock.millis()));
  }

  private static After readAfter(Before counter) {
    if (counter.notCounted() != null) {
      return new After(null, counter.notCounted());
    }
    try {
      return new After(counter.read().getAsLong(), null);
    } catch (RuntimeException e) {
      String why = "it could not be read after the load: " + e.getMessage();
      Console.say("server count: " + counter.counter() + " n/a (" + why + ")");
      return new After(null, why);
    }
  }
}
