package couchbench.results;

import couchbench.gatling.GatlingRunId;
import couchbench.startup.Console;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * The run folder Gatling names, as its run id tells it ({@link GatlingRunId}): said when the load starts and named in
 * lastRun.txt, so that a run killed before its end is found as well; and, where a run's files cannot go there, a folder
 * of couchbench's own, with why.
 */
final class GatlingFolder implements GatlingRunId.Listener {

  private Path folder;
  private String runIdUnknown = "Gatling did not build the scenario that reads it";

  /**
   * Says where the run's folder is, and makes lastRun.txt name it.
   *
   * @param runId Gatling's id of this run, the name of its folder under the results root
   */
  @Override
  public synchronized void named(String runId) {
    folder = RunFolders.resultsRoot().resolve(runId);
    Console.say("run folder: " + folder.toAbsolutePath().normalize());
    try {
      RunFolders.lastRunIfUnderRoot(folder);
    } catch (UncheckedIOException e) {
      Console.say(RunFolders.LAST_RUN + " not written: " + e.getCause().getMessage());
    }
  }

  @Override
  public synchronized void unknown(String why) {
    runIdUnknown = why;
  }

  /** @return Gatling's simulation.log of this run, where there is one */
  synchronized Optional<Path> log() {
    return folder == null || !Files.isRegularFile(folder.resolve(RunFolders.LOG)) ? Optional.empty()
        : Optional.of(folder);
  }

  /**
   * @param simulation the simulation's name, for a folder of couchbench's own
   * @param at when the run ended, for that folder's name
   * @param besideGatling told, where the files cannot go beside Gatling's report, why not
   * @return the folder the run's files go to: Gatling's, or one of couchbench's own, created
   * @throws ResultsException when even that cannot be created
   */
  synchronized Path forFiles(String simulation, Instant at, Why besideGatling) {
    String whyNot = whyNotBeside();
    if (whyNot == null) {
      return folder;
    }
    besideGatling.not(whyNot);
    Path own = RunFolders.resultsRoot().resolve(RunFolders.ownName(simulation, "couchbench", at));
    try {
      return Files.createDirectories(own);
    } catch (IOException e) {
      throw new ResultsException(own + ": cannot be created (" + e + "): the run's figures are not written");
    }
  }

  /** Hears why a run's files cannot go beside Gatling's report. */
  @FunctionalInterface
  interface Why {
    /** @param why in words for the user */
    void not(String why);
  }

  /** @return null when the run's files can go beside Gatling's report; else why not, in words for the user */
  private String whyNotBeside() {
    if (folder == null) {
      return "Gatling's run id could not be read: " + runIdUnknown;
    }
    if (!Files.isRegularFile(folder.resolve(RunFolders.LOG))) {
      return "Gatling's run folder " + folder.getFileName() + " is not under " + RunFolders.resultsRoot()
          + ": give -Dcouchbench.reports the folder Gatling writes its runs to";
    }
    if (!Files.isWritable(folder)) {
      return folder + " cannot be written";
    }
    return null;
  }
}
