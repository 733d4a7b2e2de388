package couchbench.background;

import couchbench.startup.OneLineException;

/** A background task the server cannot run (a node without a copy to catch up, a restart refused): said in one line. */
final class BackgroundException extends OneLineException {

  /** @param message the task, what is wrong and what to do instead */
  BackgroundException(String message) {
    super(message);
  }
}
