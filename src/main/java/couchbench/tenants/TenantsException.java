package couchbench.tenants;

import couchbench.startup.OneLineException;

/** A Tenants setting or server that cannot be run: said in one line, before any load. */
public final class TenantsException extends OneLineException {

  /** @param message the setting or server, what is wrong and what to do instead */
  public TenantsException(String message) {
    super(message);
  }
}
