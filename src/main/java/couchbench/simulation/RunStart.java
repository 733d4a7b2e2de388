package couchbench.simulation;

import couchbench.startup.Settings;
import couchbench.startup.Startup;

/** TEMPORARY until the startup branch merges. */
public final class RunStart {
  private RunStart() {}

  public static Settings settings() {
    return Startup.settings();
  }
}
