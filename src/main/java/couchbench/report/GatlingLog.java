package couchbench.report;

import io.gatling.charts.stats.LogFileReader;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.stats.ErrorStats;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import scala.Option;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Reads a finished run's simulation.log with Gatling's own (internal) reader, for what Gatling
 * records and a simulation does not see: why a request without a reply failed, and every request's
 * times. Gatling closes the log before the simulation's after() hook, so the hook can read it
 * complete.
 */
public final class GatlingLog {

  private GatlingLog() {}

  /**
   * The failure messages of one request name and how often each occurred, as in the report's
   * error table.
   *
   * @param runFolder the run folder holding simulation.log
   * @param requestName the request name
   * @return count by message; empty when the log cannot be read (e.g. without the
   *     {@code --add-opens} Gatling needs, which the Maven plugin passes)
   */
  public static Optional<Map<String, Long>> errors(Path runFolder, String requestName) {
    try {
      LogFileReader reader =
          new LogFileReader(runFolder.resolve(RunFolders.LOG).toFile(), GatlingConfiguration.load());
      Map<String, Long> errors = new LinkedHashMap<>();
      for (ErrorStats error : CollectionConverters.asJava(
          reader.read().errors(Option.apply(requestName), Option.empty()))) {
        errors.merge(error.message(), (long) error.count(), Long::sum);
      }
      return Optional.of(errors);
    } catch (RuntimeException | LinkageError e) {
      return Optional.empty();
    }
  }

  /**
   * Every request name of the run with its counts and times, from the log's individual records
   * (exact sums and spans, not Gatling's rounded aggregates).
   *
   * @param runFolder the run folder holding simulation.log
   * @return tally by request name, in order of first appearance; empty when the log cannot be read
   *     (as for {@link #errors})
   */
  public static Optional<Map<String, RequestTally>> requests(Path runFolder) {
    return tallies(runFolder).map(RunTallies::requests);
  }

  /**
   * Same, for the run a simulation is finishing: call it from the simulation's after() hook.
   *
   * @param simulationName the simulation's class name
   * @param loadStart an instant taken at the end of the simulation's before() hook
   * @return tally by request name; empty when the run folder or its log cannot be found or read
   */
  public static Optional<Map<String, RequestTally>> requests(String simulationName, Instant loadStart) {
    return RunFolders.current(RunFolders.resultsRoot(), simulationName, loadStart).flatMap(GatlingLog::requests);
  }

  /**
   * Every request name and every group of the run, from one reading of the log, as {@link
   * #requests} for requests. A group passed when all its requests passed.
   *
   * @param runFolder the run folder holding simulation.log
   * @return the tallies; empty when the log cannot be read
   */
  public static Optional<RunTallies> tallies(Path runFolder) {
    try (RequestRecords records = new RequestRecords(runFolder.resolve(RunFolders.LOG).toFile())) {
      return Optional.of(records.parse());
    } catch (Exception | LinkageError e) {
      // Exception, not just RuntimeException: Gatling's Scala code throws IOException undeclared
      // (a missing or truncated log).
      return Optional.empty();
    }
  }
}
