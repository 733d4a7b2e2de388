package couchbench.process;

import couchbench.startup.OneLineException;

/**
 * A local server process could not be started, or did not come up. The message is one line that names the server,
 * the port or the log file to read; it never contains a password.
 */
public final class ProcessException extends OneLineException {

  /**
   * @param message what went wrong and where to look, one line
   */
  public ProcessException(String message) {
    super(message);
  }

  /**
   * @param message what went wrong and where to look, one line
   * @param cause the underlying failure, kept for stack traces
   */
  public ProcessException(String message, Throwable cause) {
    super(message, cause);
  }
}
