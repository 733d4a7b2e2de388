package couchbench.simulation;

import couchbench.startup.Console;
import couchbench.startup.Heap;
import couchbench.startup.RunClock;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import couchbench.startup.Startup;
import couchbench.targets.TargetSettings;

/** The start every simulation shares: the run's settings, read and printed once. */
public final class RunStart {

  private static Settings settings;

  /** The property gatling.conf reads to put Gatling's console data writer back, set for -Dconsole=gatling. */
  static final String GATLING_CONSOLE = "couchbench.gatlingConsole";

  private RunStart() {}

  /**
   * -Dconsole: {@code couchbench} (the default: couchbench's step and progress lines, Gatling's console data writer
   * left out) or {@code gatling} (Gatling's console too, every population every 5 s). Gatling reads its configuration
   * before any simulation runs: the pom (or the tests' GatlingRun) turns -Dconsole=gatling into the property
   * gatling.conf reads; where it did not (-Dgatling.jvmArgs replaces the pom's list), this says so.
   */
  private static void checkConsole(Settings settings) {
    String console = settings.value("console").orElse("couchbench");
    if (!console.equals("couchbench") && !console.equals("gatling")) {
      throw new SettingsException("-Dconsole=" + console + " is not couchbench or gatling");
    }
    boolean gatlingsOn = "console".equals(System.getProperty(GATLING_CONSOLE));
    if (console.equals("gatling") && !gatlingsOn) {
      Console.say("-Dconsole=gatling, but Gatling's console is off: start the run with -D" + GATLING_CONSOLE
          + "=console too (the pom adds it to its jvmArgs, which -Dgatling.jvmArgs replaces)");
    }
  }

  /**
   * Starts the run's clock ({@link RunClock}) and reads the settings from the system properties on the first call,
   * and prints them (passwords masked); sends heap dumps under target/ and starts the heap probe if asked
   * ({@link Heap}).
   *
   * @return the run's settings, the same on every call
   */
  public static synchronized Settings settings() {
    if (settings == null) {
      RunClock.millis(); // its one reading of the wall clock, as its class loads: the run starts here
      settings = Settings.fromSystemProperties();
      Console.say(new TargetSettings(settings).describe());
      Heap.dumpsUnderTarget();
      Startup.orExit(() -> Heap.probeIfAsked(settings));
      Startup.orExit(() -> checkConsole(settings));
    }
    return settings;
  }
}
