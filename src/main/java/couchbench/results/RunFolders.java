package couchbench.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the folder Gatling is writing a run into, so that a simulation's after() hook can put its
 * summary beside Gatling's report. Gatling names it {@code <simulation id>-<yyyyMMddHHmmssSSS>}:
 * the id is the simulation's class name lowercased, the digits the run's start in UTC, taken right
 * after the simulation's before() hook. Several runs of one simulation may write into the same
 * results folder at once (a benchmark beside the tests), so the newest folder is not necessarily
 * ours: ours is the one stamped nearest the end of our before() hook. Gatling's clock is the wall
 * clock read at JVM start plus elapsed nanoTime, so its stamp may be a little earlier than the
 * wall clock read just before it: a folder stamped up to a second before is still a candidate.
 */
public final class RunFolders {

  static final String LOG = "simulation.log";

  private static final Duration CLOCK_SKEW = Duration.ofSeconds(1);

  private static final DateTimeFormatter GATLING_TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);

  private RunFolders() {}

  /**
   * The run folder Gatling is writing for this simulation.
   *
   * @param resultsRoot the folder Gatling writes its runs into
   * @param simulationName the simulation's class name, in any case
   * @param loadStart an instant taken at the end of the simulation's before() hook
   * @return the folder named {@code <simulationName lowercased>-<timestamp>} holding a
   *     simulation.log whose timestamp is nearest loadStart, from a second before it on; empty if
   *     none, e.g. outside Gatling
   * @throws UncheckedIOException if resultsRoot exists but cannot be listed
   */
  public static Optional<Path> current(Path resultsRoot, String simulationName, Instant loadStart) {
    if (!Files.isDirectory(resultsRoot)) {
      return Optional.empty();
    }
    Pattern name = Pattern.compile(Pattern.quote(simulationName.toLowerCase(Locale.ROOT)) + "-(\\d{17})");
    Instant since = loadStart.minus(CLOCK_SKEW);
    try (Stream<Path> folders = Files.list(resultsRoot)) {
      return folders
          .filter(folder -> Files.isRegularFile(folder.resolve(LOG)))
          .flatMap(folder -> started(name, folder).stream().map(start -> Map.entry(start, folder)))
          .filter(run -> !run.getKey().isBefore(since))
          .min(Comparator.comparing(run -> Duration.between(run.getKey(), loadStart).abs()))
          .map(Map.Entry::getValue);
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + resultsRoot, e);
    }
  }

  /** The file in the results root that names the last run folder, as Gatling writes it. */
  public static final String LAST_RUN = "lastRun.txt";

  /**
   * @param simulation the simulation's name
   * @param at the merge's time
   * @return the name of a merged folder, as Gatling names a run's: {@code memset-merged-20261201100000123}
   */
  public static String mergedName(String simulation, Instant at) {
    return simulation.toLowerCase(Locale.ROOT) + "-merged-" + GATLING_TIMESTAMP.format(at);
  }

  /**
   * Names a folder in the results root's lastRun.txt, as Gatling does for a run's folder; a folder elsewhere
   * (deploy/kubernetes/run.sh's, a test's) leaves it as it is.
   *
   * @param folder a folder just written, e.g. a merged run
   * @return whether lastRun.txt now names it
   * @throws UncheckedIOException if lastRun.txt cannot be written
   */
  public static boolean lastRunIfUnderRoot(Path folder) {
    Path root = resultsRoot().toAbsolutePath().normalize();
    Path absolute = folder.toAbsolutePath().normalize();
    if (!root.equals(absolute.getParent())) {
      return false;
    }
    try {
      Files.writeString(root.resolve(LAST_RUN), absolute.getFileName().toString());
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + root.resolve(LAST_RUN), e);
    }
    return true;
  }

  /** @return the system property couchbench.reports if set, else "reports" (relative to the working dir) */
  public static Path resultsRoot() {
    return Path.of(System.getProperty("couchbench.reports", "reports"));
  }

  /** @return the run's start as the folder name says, empty for a folder that is not such a run */
  private static Optional<Instant> started(Pattern name, Path folder) {
    Matcher matcher = name.matcher(folder.getFileName().toString());
    if (!matcher.matches()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Instant.from(GATLING_TIMESTAMP.parse(matcher.group(1))));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
