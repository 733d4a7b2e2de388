package couchbench.viewquery;

import couchbench.startup.OneLineException;

/**
 * The view cannot be queried as the run needs: missing, broken, or holding other rows than set up.
 * The message is one line naming the view and what to do.
 */
public final class ViewQueryException extends OneLineException {

  ViewQueryException(String message) {
    super(message);
  }
}
