package couchbench.changes;

import couchbench.startup.OneLineException;

/** A Changes setting or server that cannot be run: said in one line, before any load. */
public final class ChangesException extends OneLineException {

  /** @param message the setting or server, what is wrong and what to do instead */
  public ChangesException(String message) {
    super(message);
  }
}
