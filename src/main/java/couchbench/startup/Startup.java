package couchbench.startup;

import java.util.function.Supplier;

/**
 * The start of a run as a simulation sees it: a clean stop, with a one-line message and no stack trace, when a setting
 * is wrong or a target cannot be reached.
 */
public final class Startup {

  private Startup() {}

  /**
   * Runs one step of the start and returns its result; on failure, prints why and exits the JVM with status 1.
   *
   * @param step e.g. {@code () -> Targets.couchdb(settings)}
   * @param <T> what the step returns
   * @return what the step returned
   */
  public static <T> T orExit(Supplier<T> step) {
    try {
      return step.get();
    } catch (RuntimeException e) {
      throw exit(e);
    }
  }

  /**
   * Runs one step of the start; on failure, prints why and exits the JVM with status 1.
   *
   * @param step e.g. {@code () -> load.createDatabases(client)}
   */
  public static void orExit(Runnable step) {
    orExit(() -> {
      step.run();
      return null;
    });
  }

  private static RuntimeException exit(RuntimeException e) {
    Console.say("stopped: " + e.getMessage());
    // couchbench's own exceptions carry a message that says what to fix; anything else is a bug, and needs its trace.
    if (!(e instanceof OneLineException)) {
      e.printStackTrace();
    }
    System.exit(1);
    return e; // not reached
  }
}
