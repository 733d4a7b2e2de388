package couchbench.tenants;

import java.util.List;
import java.util.Set;

/**
 * What a user tries now and then that it was never given: each must be refused, as CouchDB documents it (401 without
 * a valid login, 403 for a user that is not a member or a write a {@code validate_doc_update} forbids, 404 for another
 * user's document in {@code _users}).
 */
public enum SecurityProbe {

  /** GET of the next user's database, whose _security names that user alone. */
  OTHER_DATABASE("probe another user's database"),
  /** GET of the database no user is given. */
  NEVER_GIVEN("probe a database never given"),
  /** GET of the next user's document in _users. */
  OTHER_USER_DOC("probe another user's _users document"),
  /** PUT over the next user's first document in the shared database, with its revision: its validate_doc_update's. */
  WRITE_OVER("probe a write over another user's document");

  /** The statuses that refuse a probe. */
  public static final Set<Integer> REFUSALS = Set.of(401, 403, 404);

  private final String requestName;

  SecurityProbe(String requestName) {
    this.requestName = requestName;
  }

  /**
   * @param databases the run's -Ddatabases
   * @return the probes its users try, in turn: in a shared database another user's documents are readable by design
   *     (a database's members read all of it), their writing is what is kept from the others
   */
  public static List<SecurityProbe> of(TenantsPlan.Databases databases) {
    return switch (databases) {
      case OWN, PERUSER -> List.of(OTHER_DATABASE, NEVER_GIVEN, OTHER_USER_DOC);
      case SHARED -> List.of(WRITE_OVER, NEVER_GIVEN, OTHER_USER_DOC);
    };
  }

  /** @return its request name in Gatling's report and results.json */
  public String requestName() {
    return requestName;
  }

  /**
   * @param other the next user, whose database and _users document are not the prober's
   * @param closedDatabase the database no user is given
   * @return the path the probe GETs (PUTs: {@link #WRITE_OVER})
   */
  String path(Tenant other, String closedDatabase) {
    return switch (this) {
      case OTHER_DATABASE -> "/" + other.database();
      case WRITE_OVER -> "/" + other.database() + "/" + other.docId(0);
      case NEVER_GIVEN -> "/" + closedDatabase;
      case OTHER_USER_DOC -> "/_users/" + other.userDocId();
    };
  }
}
