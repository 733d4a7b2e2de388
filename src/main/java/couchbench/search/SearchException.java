package couchbench.search;

import couchbench.startup.OneLineException;

/** A Search run that cannot go on, said in one line: a setting, a server without search, a search it refuses. */
public final class SearchException extends OneLineException {

  /** @param message what went wrong and what to do */
  public SearchException(String message) {
    super(message);
  }
}
