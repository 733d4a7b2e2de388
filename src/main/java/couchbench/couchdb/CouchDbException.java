package couchbench.couchdb;

import couchbench.startup.OneLineException;

/**
 * CouchDB refused or garbled a setup, verification or teardown request. The message is one line that
 * names the server and the setting that fixes it; it never holds a password.
 */
public final class CouchDbException extends OneLineException {

  /** True when CouchDB refused the credentials (401 or 403): the run must stop, not retry. */
  private final boolean authFailure;

  CouchDbException(String message, boolean authFailure) {
    super(message);
    this.authFailure = authFailure;
  }

  /**
   * Whether CouchDB refused the credentials.
   *
   * @return true for a 401 or 403 reply
   */
  public boolean isAuthFailure() {
    return authFailure;
  }
}
