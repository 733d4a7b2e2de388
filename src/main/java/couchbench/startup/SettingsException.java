package couchbench.startup;

/**
 * A run parameter has a value that cannot be used. The message is one line that names the parameter, the value
 * given and what is expected; it never contains a password.
 */
public final class SettingsException extends OneLineException {

  /**
   * @param message the parameter, its value and what is expected, one line
   */
  public SettingsException(String message) {
    super(message);
  }
}
