package couchbench.history;

import couchbench.results.RunFolders;
import couchbench.run.RunContext;
import couchbench.run.RunExtension;
import couchbench.startup.AtExit;

/** The run extension that ends a run with where the page of every run kept is ({@link History}). */
public final class HistoryLine implements RunExtension {

  /** How `exec:java@extensions` lists it. */
  public static final Spec SPEC = new Spec("history", "always on",
      "says, among the run's last lines, where `mvn -q exec:java@history` writes the page of every run kept",
      "nothing: one line");

  @Override
  public void loadEnds(RunContext run) {
    AtExit.say("history of the runs kept: mvn -q exec:java@history writes " + RunFolders.resultsRoot()
        .resolve(History.FOLDER).resolve(History.PAGE));
  }
}
