package couchbench.replication;

import couchbench.startup.OneLineException;

/** A Replicate setting, server or replication that cannot be run: said in one line, before any load. */
public final class ReplicationException extends OneLineException {

  /** @param message the setting or server, what is wrong and what to do instead */
  public ReplicationException(String message) {
    super(message);
  }
}
