package couchbench.targets;

import couchbench.startup.OneLineException;

/**
 * A target server cannot be found, reached or started. The message is one line that names the URL or server and
 * the setting or command that fixes it; it never contains a password.
 */
public final class TargetException extends OneLineException {

  /**
   * @param message what is wrong and how to fix it, one line
   */
  public TargetException(String message) {
    super(message);
  }

  /**
   * @param message what is wrong and how to fix it, one line
   * @param cause the underlying failure, kept for stack traces
   */
  public TargetException(String message, Throwable cause) {
    super(message, cause);
  }
}
