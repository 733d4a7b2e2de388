package couchbench.tenants;

import java.util.Set;

/**
 * What a user tries now and then that it was never given: each must be refused, as CouchDB documents it (401 without
 * a valid login, 403 for a user that is not a member, 404 for another user's document in {@code _users}).
 */
public enum SecurityProbe {

  /** GET of the next user's database, whose _security names that user alone. */
  OTHER_DATABASE("probe another user's database"),
  /** GET of the database no user is given. */
  NEVER_GIVEN("probe a database never given"),
  /** GET of the next user's document in _users. */
  OTHER_USER_DOC("probe another user's _users document");

  /** The statuses that refuse a probe. */
  public static final Set<Integer> REFUSALS = Set.of(401, 403, 404);

  private final String requestName;

  SecurityProbe(String requestName) {
    this.requestName = requestName;
  }

  /** @return its request name in Gatling's report and results.json */
  public String requestName() {
    return requestName;
  }

  /**
   * @param other the next user, whose database and _users document are not the prober's
   * @param closedDatabase the database no user is given
   * @return the path the probe GETs
   */
  String path(Tenant other, String closedDatabase) {
    return switch (this) {
      case OTHER_DATABASE -> "/" + other.database();
      case NEVER_GIVEN -> "/" + closedDatabase;
      case OTHER_USER_DOC -> "/_users/" + other.userDocId();
    };
  }
}
