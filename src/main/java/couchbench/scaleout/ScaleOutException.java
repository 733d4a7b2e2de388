package couchbench.scaleout;

import couchbench.startup.OneLineException;

/** An injector cannot start its share of a run: the message is one line saying what to do. */
public final class ScaleOutException extends OneLineException {

  /** @param message what went wrong and the fix, one line */
  public ScaleOutException(String message) {
    super(message);
  }
}
