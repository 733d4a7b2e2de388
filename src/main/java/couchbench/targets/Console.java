package couchbench.targets;

/** The deliberate one-line messages that couchbench prints for its user (not a log). */
public final class Console {

  private Console() {}

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
}
