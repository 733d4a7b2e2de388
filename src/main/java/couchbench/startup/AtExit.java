package couchbench.startup;

import java.util.ArrayList;
import java.util.List;

/**
 * What couchbench does as the JVM exits, in one shutdown hook and in order: the tasks (a key file's keys kept, the
 * local servers stopped), then the lines that must be a run's last, then the exit code a run asked for. Hooks of
 * their own would run side by side; and Gatling ends the JVM itself, after its report, with its own code, so a run
 * whose outcome Gatling does not know (its figures not where they belong) can only set the code as the hook's last
 * act: it halts the JVM with it once everything else is done.
 */
public final class AtExit {

  private static final List<Runnable> TASKS = new ArrayList<>();
  private static final List<String> LINES = new ArrayList<>();
  private static Integer exitCode;
  private static boolean hooked;

  private AtExit() {}

  /**
   * @param task what to do as the JVM exits, after the tasks registered before it; an exception in it stops no other
   *     task
   */
  public static synchronized void run(Runnable task) {
    hook();
    TASKS.add(task);
  }

  /**
   * Prints a line as {@link Console#say} does, but when the JVM exits: after what Gatling prints once the simulation's
   * after() hook has run (its global figures, the path of its report), so that the line is among the run's last.
   *
   * @param line the message, e.g. the path of the run's summary
   */
  public static synchronized void say(String line) {
    hook();
    LINES.add(line);
  }

  /**
   * Ends the JVM with this code, whatever Gatling ends it with, once the tasks are done and the lines printed.
   *
   * @param code the exit code, not 0; the first one asked for is kept
   */
  public static synchronized void exitWith(int code) {
    hook();
    if (exitCode == null) {
      exitCode = code;
    }
  }

  private static void hook() {
    if (!hooked) {
      Runtime.getRuntime().addShutdownHook(new Thread(AtExit::exit, "couchbench-at-exit"));
      hooked = true;
    }
  }

  private static void exit() {
    List<Runnable> tasks;
    List<String> lines;
    Integer code;
    synchronized (AtExit.class) {
      tasks = List.copyOf(TASKS);
      lines = List.copyOf(LINES);
      code = exitCode;
    }
    for (Runnable task : tasks) {
      try {
        task.run();
      } catch (RuntimeException e) {
        Console.say("at exit: " + e); // the other tasks still run
      }
    }
    lines.forEach(Console::say);
    if (code != null) {
      System.out.flush();
      Runtime.getRuntime().halt(code);
    }
  }
}
