package couchbench.results;

import couchbench.startup.OneLineException;

/** A run's results cannot be read or written; the message is one line naming the file and what is wrong. */
public final class ResultsException extends OneLineException {

  /** @param message one line naming the file and what is wrong */
  public ResultsException(String message) {
    super(message);
  }
}
