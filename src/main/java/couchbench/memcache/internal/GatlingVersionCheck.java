package couchbench.memcache.internal;

import io.gatling.commons.util.GatlingVersion;

/**
 * The memcache protocol is built on Gatling's internal Scala API ({@link JavaExitableAction} does
 * what its traits' bodies do), which changes between Gatling versions without notice: a run on
 * another version stops before the first request, with one line, instead of misbehaving quietly.
 */
final class GatlingVersionCheck {

  /** The Gatling version this code was built and tested with: the pom's gatling.version. */
  static final String BUILT_FOR = "3.15.1";

  private GatlingVersionCheck() {}

  /** @throws IllegalStateException when this run's Gatling is another version */
  static void requireBuiltForVersion() {
    requireBuiltFor(GatlingVersion.ThisVersion().fullVersion());
  }

  /**
   * @param running the Gatling version of this run
   * @throws IllegalStateException when it is not {@link #BUILT_FOR}
   */
  static void requireBuiltFor(String running) {
    if (!BUILT_FOR.equals(running)) {
      throw new IllegalStateException("couchbench's memcache protocol is built for Gatling " + BUILT_FOR
          + ", this run has Gatling " + running + ": run it with Gatling " + BUILT_FOR
          + " (the pom's gatling.version), or port couchbench.memcache.internal to " + running);
    }
  }
}
