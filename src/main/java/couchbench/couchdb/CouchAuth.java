package couchbench.couchdb;

import couchbench.targets.CouchTarget;

/**
 * CouchDB credentials on the wire, and what to say when they are refused. CouchDB 3 locks a user out
 * after a few failed logins, so a refusal stops the run instead of being retried.
 */
public final class CouchAuth {

  private CouchAuth() {}

  /**
   * Whether an HTTP status means CouchDB refused who we are.
   *
   * @param status the HTTP status
   * @return true for 401 and 403
   */
  public static boolean isRefusal(int status) {
    return status == 401 || status == 403;
  }

  /**
   * One line for a refused login: which server, which user (never the password), what to change.
   *
   * @param target the server
   * @param status 401 or 403
   * @return the message
   */
  public static String refusalMessage(CouchTarget target, int status) {
    String server = "CouchDB at " + target.baseUrl();
    return target
        .credentials()
        .map(
            credentials ->
                server + " refused user '" + credentials.user() + "' (" + status
                    + (status == 403 ? ": not an admin, or locked out after failed logins" : "")
                    + "): check -Dcouchdb.user and -Dcouchdb.password (or COUCHDB_PASSWORD);"
                    + " couchbench stops at the first refusal so the account is not locked out")
        .orElse(
            server + " requires an admin login (" + status + "): set -Dcouchdb.user and"
                + " -Dcouchdb.password, or give -Dcouchdb.url=http://user:password@host:5984");
  }
}
