package couchbench.tenants;

import couchbench.targets.Credentials;

/**
 * One application user of a run: its login in {@code _users} and its database.
 *
 * @param index its number, from 0
 * @param credentials its name and password (the password drawn for the run, never written anywhere)
 * @param database its database: its own, whose _security names it alone, or the one shared by all
 * @param docPrefix what its documents' ids begin with: nothing in its own database, its name and a colon in a shared
 *     one
 */
public record Tenant(int index, Credentials credentials, String database, String docPrefix) {

  /**
   * @param number a document's number, from 0
   * @return the id of its seeded document of that number, e.g. doc00042 (own database) or
   *     couchbench_tenants_00003:doc00042 (shared)
   */
  public String docId(int number) {
    return docPrefix + TenantAccounts.seededId(number);
  }

  /** @return its name, as its _users document and its logins carry it */
  public String name() {
    return credentials.user();
  }

  /** @return the id of its document in _users */
  public String userDocId() {
    return "org.couchdb.user:" + name();
  }
}
