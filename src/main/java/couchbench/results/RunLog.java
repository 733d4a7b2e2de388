package couchbench.results;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import java.util.stream.Stream;

/**
 * What a finished run's simulation.log says, read once by {@link SimulationLog}.
 *
 * @param gatlingVersion the Gatling version that wrote it
 * @param simulationClass the simulation's class name
 * @param startEpochMillis the run's start; the tallies' times are relative to it
 * @param requests a tally per request name, in order of first appearance
 * @param groups a tally per group name (the innermost name of nested groups), in order of first appearance; a
 *     group's time is its duration, as in couchbench's Gatling report; a group passed when none of its requests failed
 * @param failures per request name, its failed requests counted by message ({@link FailureKinds})
 * @param errors Gatling's errors outside any request (a crashed action), counted by message
 * @param requestTimes per request name not timed by couchbench's client, its times at Gatling's whole milliseconds
 * @param groupTimes per group name, its durations at Gatling's whole milliseconds
 */
public record RunLog(
    String gatlingVersion,
    String simulationClass,
    long startEpochMillis,
    Map<String, RequestTally> requests,
    Map<String, RequestTally> groups,
    Map<String, Map<String, Long>> failures,
    Map<String, Long> errors,
    Map<String, Outcomes> requestTimes,
    Map<String, Outcomes> groupTimes) {

  /**
   * Reads a finished run's simulation.log, every request at Gatling's precision.
   *
   * @param runFolder the run folder holding simulation.log
   * @return what it says
   * @throws ResultsException when the log is missing, cut short, of another Gatling version or not a log at all
   */
  public static RunLog read(Path runFolder) {
    return SimulationLog.read(runFolder, Set.of(), IntervalSink.NONE, new LoadSeconds(), LongUnaryOperator.identity());
  }

  /**
   * @param requestName a request name
   * @return its failed requests counted by message, as in Gatling's error table; empty when none failed
   */
  public Map<String, Long> failures(String requestName) {
    return Optional.ofNullable(failures.get(requestName)).orElse(Map.of());
  }

  /** @return when the last request or group ended, in milliseconds from the start; 0 for an empty run */
  long lastEndMillis() {
    return Stream.concat(requests.values().stream(), groups.values().stream())
        .filter(tally -> tally.ok() + tally.ko() > 0)
        .mapToLong(RequestTally::lastEndMillis).max().orElse(0);
  }
}
