package couchbench.tenants;

import couchbench.targets.Credentials;

/**
 * One application user of a run: its login in {@code _users} and its database.
 *
 * @param index its number, from 0
 * @param credentials its name and password (the password drawn for the run, never written anywhere)
 * @param database the database whose _security names it alone
 */
public record Tenant(int index, Credentials credentials, String database) {

  /** @return its name, as its _users document and its logins carry it */
  public String name() {
    return credentials.user();
  }

  /** @return the id of its document in _users */
  public String userDocId() {
    return "org.couchdb.user:" + name();
  }
}
