package couchbench.variants;

import couchbench.startup.OneLineException;

/** Variants cannot be run as asked (a server without _config, a login that is not an admin's, a round that failed). */
public final class VariantsException extends OneLineException {

  /** @param message what is wrong and what fixes it */
  VariantsException(String message) {
    super(message);
  }
}
