package couchbench.startup;

/**
 * A failure couchbench foresaw: its message is one line that says what is wrong and what fixes it, and never holds a
 * password. {@link Startup#orExit} prints it without a stack trace; any other exception is a bug, and gets its trace.
 */
public abstract class OneLineException extends RuntimeException {

  /** @param message what is wrong and what fixes it; line breaks in it are folded into spaces */
  protected OneLineException(String message) {
    super(Console.oneLine(message));
  }

  /**
   * @param message what is wrong and what fixes it; line breaks in it are folded into spaces
   * @param cause the underlying failure
   */
  protected OneLineException(String message, Throwable cause) {
    super(Console.oneLine(message), cause);
  }
}
