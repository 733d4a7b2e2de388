package couchbench.startup;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** The deliberate one-line messages that couchbench prints for its user (not a log). */
public final class Console {

  // What the run was warned of, for its summary page too.
  private static final List<String> warnings = new CopyOnWriteArrayList<>();

  // The load's progress so far, which each step's line ends with; empty outside a load.
  private static volatile Supplier<String> progress = () -> "";
  private static final AtomicLong steps = new AtomicLong();

  private Console() {}

  /**
   * Prints the one line that says a step or phase of the load starts, followed by the load's progress so far (see
   * {@link #progressFrom}): "couchbench: step 25/60: bulk B=64 T=2 (...) -- so far 12,345 writes, 410/s, 0 failed".
   *
   * @param line the step, e.g. "step 25/60: bulk B=64 T=2 (at least 3072 documents and 2 s)"
   */
  public static void step(String line) {
    String sofar = progress.get();
    steps.incrementAndGet();
    say(sofar.isEmpty() ? line : line + " -- " + sofar);
  }

  /** @return how many step lines were printed so far: a progress line is due when none was for a while */
  public static long stepLines() {
    return steps.get();
  }

  /**
   * Sets what a step's line ends with while the load runs.
   *
   * @param sofar the load's progress now, e.g. "so far 12,345 writes, 410/s, 0 failed"; null for none
   */
  public static void progressFrom(Supplier<String> sofar) {
    progress = sofar == null ? () -> "" : sofar;
  }

  /**
   * Prints one line starting "couchbench: WARNING: ", and keeps it for the run's summary page.
   *
   * @param line what the user must not miss, e.g. a check that is off
   */
  public static void warn(String line) {
    warnings.add("WARNING: " + oneLine(line));
    say("WARNING: " + line);
  }

  /** @return every warning of this run so far, in order, each starting "WARNING: " */
  public static List<String> warnings() {
    return List.copyOf(warnings);
  }

  /**
   * Prints one line to stdout, prefixed with "couchbench: ".
   *
   * @param line the message; line breaks in it are folded into spaces
   */
  public static void say(String line) {
    System.out.println("couchbench: " + oneLine(line));
  }

  /** Folds line breaks into spaces: messages and exceptions stay on one line, whatever they quote. */
  public static String oneLine(String text) {
    return text.replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  /**
   * @param reply what a server or program said, e.g. a reply or a log line
   * @return its start, on one line, short enough to quote in an error message
   */
  public static String quote(String reply) {
    String line = reply.replaceAll("\\s+", " ").trim();
    return line.isEmpty() ? "an empty reply" : line.length() <= 60 ? line : line.substring(0, 60) + "...";
  }
}
