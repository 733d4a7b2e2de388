package couchbench.scaleout;

import couchbench.startup.Console;

/** An injector cannot start its share of a run: the message is one line saying what to do. */
public final class ScaleOutException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** @param message what went wrong and the fix, one line */
  public ScaleOutException(String message) {
    super(Console.oneLine(message));
  }
}
