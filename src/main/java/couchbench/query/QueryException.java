package couchbench.query;

import couchbench.startup.OneLineException;

/** A Query setting or server that cannot be run: said in one line, before any load. */
public final class QueryException extends OneLineException {

  /** @param message the setting or server, what is wrong and what to do instead */
  public QueryException(String message) {
    super(message);
  }
}
