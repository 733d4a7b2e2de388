package couchbench.data;

import couchbench.startup.OneLineException;

/** A key file that cannot be used; the message is one line naming the file and the fix. */
public final class KeyFileException extends OneLineException {

  public KeyFileException(String message) {
    super(message);
  }
}
