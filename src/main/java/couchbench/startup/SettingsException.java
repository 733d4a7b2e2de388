package couchbench.startup;

/**
 * A run parameter has a value that cannot be used. The message is one line that names the parameter, the value
 * given and what is expected; it never contains a password.
 */
public final class SettingsException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /**
   * @param message the parameter, its value and what is expected, one line
   */
  public SettingsException(String message) {
    super(Console.oneLine(message));
  }
}
