package couchbench.data;

/** A key file that cannot be used; the message is one line naming the file and the fix. */
public final class KeyFileException extends RuntimeException {

  public KeyFileException(String message) {
    super(message);
  }
}
