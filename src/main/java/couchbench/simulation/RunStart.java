package couchbench.simulation;

import couchbench.startup.Console;
import couchbench.startup.Heap;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.TargetSettings;

/** The start every simulation shares: the run's settings, read and printed once. */
public final class RunStart {

  private static Settings settings;

  private RunStart() {}

  /**
   * Reads the settings from the system properties on the first call, and prints them (passwords masked); sends heap
   * dumps under target/ and starts the heap probe if asked ({@link Heap}).
   *
   * @return the run's settings, the same on every call
   */
  public static synchronized Settings settings() {
    if (settings == null) {
      settings = Settings.fromSystemProperties();
      Console.say(new TargetSettings(settings).describe());
      Heap.dumpsUnderTarget();
      Startup.orExit(() -> Heap.probeIfAsked(settings));
    }
    return settings;
  }
}
