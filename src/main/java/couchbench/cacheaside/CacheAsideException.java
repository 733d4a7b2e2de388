package couchbench.cacheaside;

import couchbench.startup.OneLineException;

/** A CacheAside setting or server that cannot be run: said in one line, before any load. */
public final class CacheAsideException extends OneLineException {

  /** @param message the setting or server, what is wrong and what to do instead */
  public CacheAsideException(String message) {
    super(message);
  }
}
