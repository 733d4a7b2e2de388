package couchbench.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The folders of runs under the results root: a run's own, which Gatling names {@code <simulation id>-<timestamp>}
 * (couchbench takes the name from Gatling itself: {@link couchbench.gatling.GatlingRunId}), and those couchbench names
 * the same way (a merged run, a run's results that could not go beside Gatling's report); and lastRun.txt, which names
 * the last of them.
 */
public final class RunFolders {

  static final String LOG = "simulation.log";

  private static final DateTimeFormatter GATLING_TIMESTAMP =
      DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").withZone(ZoneOffset.UTC);

  /**
   * The file in the results root that names the last run's folder: Gatling 3.15.1 writes none (checked), its earlier
   * versions did, and couchbench does as they did.
   */
  public static final String LAST_RUN = "lastRun.txt";

  private RunFolders() {}

  /**
   * @param simulation the simulation's name
   * @param kind what the folder holds, e.g. "merged"
   * @param at when it is written
   * @return the name of a folder of couchbench's own, as Gatling names a run's: {@code memset-merged-20261201100000123}
   */
  public static String ownName(String simulation, String kind, Instant at) {
    return simulation.toLowerCase(Locale.ROOT) + "-" + kind + "-" + GATLING_TIMESTAMP.format(at);
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
}
