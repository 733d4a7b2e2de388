package couchbench.attachment;

import couchbench.startup.OneLineException;

/** The attachment data could not be read or written, e.g. a full disk; the message says what to do. */
public final class AttachmentDataException extends OneLineException {

  /**
   * @param message what failed, and the fix
   * @param cause the I/O error
   */
  public AttachmentDataException(String message, Throwable cause) {
    super(message, cause);
  }
}
