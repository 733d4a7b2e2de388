package couchbench.report;

import couchbench.targets.Console;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/** Puts a simulation's summary page beside Gatling's report of the same run. */
public final class Summaries {

  private Summaries() {}

  /**
   * Writes the page into the run folder Gatling is writing for this simulation, found under
   * {@link RunFolders#resultsRoot()}; call it from the simulation's after() hook.
   *
   * @param simulationName the simulation's class name
   * @param loadStart an instant taken at the end of the simulation's before() hook, just before
   *     Gatling starts the run and names its folder
   * @param page the summary
   * @return the path of summary.html, also printed; empty if no run folder was found (the
   *     simulation was not run by Gatling), in which case nothing is written and that is printed
   * @throws java.io.UncheckedIOException if a file cannot be written
   */
  public static Optional<Path> write(String simulationName, Instant loadStart, SummaryPage page) {
    Path root = RunFolders.resultsRoot();
    Optional<Path> written = RunFolders.current(root, simulationName, loadStart).map(page::writeTo);
    Console.say(
        written
            .map(path -> "summary: " + path.toAbsolutePath())
            .orElse("no Gatling run folder for " + simulationName + " under " + root
                + ": summary not written"));
    return written;
  }
}
