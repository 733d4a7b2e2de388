package couchbench.targets;

import couchbench.simulation.RunStart;
import couchbench.startup.Settings;
import couchbench.startup.Startup;

/** A run whose CouchDB does not answer, for StartupIT: Startup must stop it with one line and status 1. */
public final class StartupFailMain {

  private StartupFailMain() {}

  public static void main(String[] args) {
    Settings settings = RunStart.settings();
    Startup.orExit(() -> Targets.couchdb(settings));
    System.out.println("not reached");
  }
}
