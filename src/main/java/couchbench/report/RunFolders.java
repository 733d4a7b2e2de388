package couchbench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the folder Gatling is writing a run into, so that a simulation's after() hook can put its
 * summary beside Gatling's report. Gatling names it {@code <simulation id>-<yyyyMMddHHmmssSSS>},
 * the id being the simulation's class name lowercased, and writes {@code simulation.log} in it
 * while the run goes on.
 */
public final class RunFolders {

  static final String LOG = "simulation.log";

  private RunFolders() {}

  /**
   * The run folder Gatling is writing for this simulation.
   *
   * @param resultsRoot the folder Gatling writes its runs into
   * @param simulationName the simulation's class name, in any case
   * @param startedAt when this run started (taken in the simulation's constructor or before())
   * @return the newest folder named {@code <simulationName lowercased>-<digits>} holding a
   *     simulation.log modified at or after startedAt; empty if none, e.g. outside Gatling
   * @throws UncheckedIOException if resultsRoot exists but cannot be listed
   */
  public static Optional<Path> current(Path resultsRoot, String simulationName, Instant startedAt) {
    if (!Files.isDirectory(resultsRoot)) {
      return Optional.empty();
    }
    Pattern name = Pattern.compile(Pattern.quote(simulationName.toLowerCase(Locale.ROOT)) + "-(\\d+)");
    // Some file systems keep modification times to the second (or two): compare at that grain.
    Instant since = startedAt.truncatedTo(ChronoUnit.SECONDS).minusSeconds(1);
    try (Stream<Path> folders = Files.list(resultsRoot)) {
      return folders
          .filter(folder -> name.matcher(folder.getFileName().toString()).matches())
          .filter(folder -> Files.isRegularFile(folder.resolve(LOG)))
          .filter(folder -> !logModified(folder).isBefore(since))
          // The digits are Gatling's start time, so the largest is the newest run.
          .max(Comparator.comparing((Path folder) -> timestamp(name, folder))
              .thenComparing(RunFolders::logModified));
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + resultsRoot, e);
    }
  }

  /** @return the system property couchbench.reports if set, else "reports" (relative to the working dir) */
  public static Path resultsRoot() {
    return Path.of(System.getProperty("couchbench.reports", "reports"));
  }

  private static String timestamp(Pattern name, Path folder) {
    var matcher = name.matcher(folder.getFileName().toString());
    matcher.matches();
    // Left-padded so that text order is number order even if a name has fewer digits.
    return "0".repeat(Math.max(0, 20 - matcher.group(1).length())) + matcher.group(1);
  }

  private static Instant logModified(Path folder) {
    try {
      return Files.getLastModifiedTime(folder.resolve(LOG)).toInstant();
    } catch (IOException e) {
      // Deleted since it was listed: it is not a run in progress.
      return Instant.MIN;
    }
  }
}
