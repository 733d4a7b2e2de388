package couchbench.sync;

import couchbench.startup.OneLineException;

/** A Sync setting or server that cannot be run: said in one line, before any load. */
public final class SyncException extends OneLineException {

  /** @param message the setting or server, what is wrong and what to do instead */
  public SyncException(String message) {
    super(message);
  }
}
