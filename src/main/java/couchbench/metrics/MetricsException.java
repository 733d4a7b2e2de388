package couchbench.metrics;

import couchbench.startup.OneLineException;

/** Live metrics cannot be served as asked: what, and the fix, in one line, before the load. */
public final class MetricsException extends OneLineException {

  /** @param message what is wrong and what fixes it */
  public MetricsException(String message) {
    super(message);
  }
}
