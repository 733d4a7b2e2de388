package couchbench.results;

import io.gatling.charts.stats.LogFileParser;
import io.gatling.core.stats.writer.RecordHeader;
import java.io.File;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;

/**
 * The one reader of Gatling's simulation.log: every request record into a tally, a histogram and its failure
 * messages per request name, every group record the same per group name, interval histograms as it goes. Gatling's
 * own reader (LogFileReader) keeps only aggregates, with the mean rounded to whole milliseconds and times bucketed;
 * this parser walks the same records with Gatling's own decoding primitives (string cache, sanitizing), following
 * the layout of Gatling 3.15's LogFileDataWriter, which is binary and undocumented: a log of another Gatling version
 * is refused. Requests in groups count under their own name. A group's time is its duration, from entering it to
 * leaving it, as in couchbench's Gatling report (gatling.conf sets useGroupDurationMetric).
 */
final class SimulationLog extends LogFileParser<RunLog> {

  /** The Gatling version whose log layout this reader follows; a unit test checks it is the one on the classpath. */
  static final String READS_GATLING = "3.15.1";

  private static final byte REQUEST = RecordHeader.Request$.MODULE$.value();
  private static final byte USER = RecordHeader.User$.MODULE$.value();
  private static final byte GROUP = RecordHeader.Group$.MODULE$.value();
  private static final byte ERROR = RecordHeader.Error$.MODULE$.value();
  private static final long NANOS_PER_MILLI = 1_000_000L;

  private final File file;
  private final Set<String> timedByClient;
  private final IntervalSink intervals;
  private final LoadSeconds seconds;
  private final LongUnaryOperator onRunClock;

  private SimulationLog(File file, Set<String> timedByClient, IntervalSink intervals, LoadSeconds seconds,
      LongUnaryOperator onRunClock) {
    super(file);
    this.file = file;
    this.timedByClient = timedByClient;
    this.intervals = intervals;
    this.seconds = seconds;
    this.onRunClock = onRunClock;
  }

  /**
   * Reads a finished run's log.
   *
   * @param runFolder the run folder holding simulation.log
   * @param timedByClient request names whose times couchbench's own client recorded (finer than Gatling's): their
   *     records are tallied but get no histogram here
   * @param intervals where the interval histograms go, tagged, every {@link RunOutput#INTERVAL}
   * @param seconds where each request goes by the second it ended in (those timed by the client not: they come from
   *     the client)
   * @param onRunClock places a moment of Gatling's clock, as the log's times are, on the clock of the run's other
   *     series (the servers', the memcache client's): the intervals' and the seconds' times go through it
   * @return what the log says, its times as Gatling wrote them
   * @throws ResultsException when the log is missing, cut short, of another Gatling version or not a log at all
   */
  static RunLog read(Path runFolder, Set<String> timedByClient, IntervalSink intervals, LoadSeconds seconds,
      LongUnaryOperator onRunClock) {
    File log = runFolder.resolve(RunFolders.LOG).toFile();
    if (!log.isFile()) {
      throw new ResultsException(log + ": no such file (not a Gatling run folder?)");
    }
    try (SimulationLog reader = new SimulationLog(log, timedByClient, intervals, seconds, onRunClock)) {
      return reader.parse();
    } catch (ResultsException e) {
      throw e;
    } catch (Exception | LinkageError e) {
      // Exception, not just RuntimeException: Gatling's Scala code throws IOException undeclared (a truncated log).
      throw new ResultsException(log + ": cannot be read (" + e + "); was the run cut short?");
    }
  }

  @Override
  public RunLog parse() {
    skipByte(); // the run record's header
    String version = readString();
    if (!READS_GATLING.equals(version)) {
      throw new ResultsException(file + ": simulation.log of Gatling " + version + "; couchbench reads "
          + READS_GATLING);
    }
    String simulationClass = readString();
    long startEpochMillis = readLong();
    skipString(); // description
    for (int scenarios = readInt(); scenarios > 0; scenarios--) {
      skipString();
    }
    for (int assertions = readInt(); assertions > 0; assertions--) {
      skip(readInt());
    }
    Map<String, RequestTally> requests = new LinkedHashMap<>();
    Map<String, RequestTally> groups = new LinkedHashMap<>();
    Map<String, Map<String, Long>> failures = new LinkedHashMap<>();
    Map<String, Long> errors = new LinkedHashMap<>();
    Map<String, Outcomes> requestTimes = new LinkedHashMap<>();
    Map<String, Outcomes> groupTimes = new LinkedHashMap<>();
    long startOnRunClock = onRunClock.applyAsLong(startEpochMillis);
    IntervalBuckets buckets = new IntervalBuckets(startOnRunClock, RunOutput.INTERVAL.toMillis(), intervals);
    for (int header = read(); header != -1; header = read()) {
      if (header == REQUEST) {
        readGroups(); // the request's groups: it counts under its own name
        String name = readCachedSanitizedString();
        int start = readInt();
        int end = readInt();
        boolean ok = readBoolean();
        // The failure message is read (not skipped) even when OK, so that its string is cached.
        String message = readCachedSanitizedString();
        requests.put(name, requests.getOrDefault(name, RequestTally.EMPTY).with(start, end, ok));
        if (!ok) {
          FailureKinds.count(failures.computeIfAbsent(name, n -> new LinkedHashMap<>()), message);
        }
        if (!timedByClient.contains(name)) {
          record(requestTimes, buckets, HistogramTags.request(name, ok), name, ok, start, end);
          seconds.record(name, startOnRunClock + end, ok, Math.max(0, end - start) * NANOS_PER_MILLI);
        }
      } else if (header == USER) {
        skipInt(); // scenario
        skipByte(); // start or end
        skipInt(); // timestamp
      } else if (header == GROUP) {
        String name = readGroups(); // the group's hierarchy, ending with its own name
        int start = readInt();
        int end = readInt();
        skipInt(); // cumulated response time
        boolean ok = readBoolean();
        groups.put(name, groups.getOrDefault(name, RequestTally.EMPTY).with(start, end, ok));
        record(groupTimes, buckets, HistogramTags.group(name, ok), name, ok, start, end);
      } else if (header == ERROR) {
        FailureKinds.count(errors, readCachedSanitizedString());
        skipInt();
      } else {
        throw new ResultsException(file + ": unknown record type " + header + "; is it cut short?");
      }
    }
    buckets.flushAll();
    return new RunLog(version, simulationClass, startEpochMillis, requests, groups, failures, errors, requestTimes,
        groupTimes);
  }

  private static void record(Map<String, Outcomes> times, IntervalBuckets buckets, String tag, String name,
      boolean ok, int start, int end) {
    long nanos = Math.max(0, end - start) * NANOS_PER_MILLI;
    times.computeIfAbsent(name, n -> Outcomes.compact()).record(ok, nanos);
    buckets.record(tag, end, nanos);
  }

  /**
   * Reads a group hierarchy; returns its innermost name, or "" for none. A string is written once and referred to by
   * index afterwards, maybe as a request name: read, not skipped.
   */
  private String readGroups() {
    String innermost = "";
    for (int groups = readInt(); groups > 0; groups--) {
      innermost = readCachedSanitizedString();
    }
    return innermost;
  }
}
