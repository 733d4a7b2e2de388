package couchbench.tenants;

import java.util.List;

/**
 * What a Tenants run's page shows beyond Gatling's timings of each request name: the users and their logins, and the
 * security checks tried and refused.
 *
 * @param load the load in words ({@link TenantsPlan#describe})
 * @param auth how the users authenticated: basic or cookie
 * @param tenants the users created
 * @param iterations the PBKDF2 iterations their passwords were hashed with, and where that number came from
 * @param probes each security probe's tries and refusals
 * @param wrongPasswords logins tried with a wrong password, one per user
 * @param wrongPasswordsRefused those refused
 * @param letIn every probe or wrong password let in (at most {@link TenantsLoad#LET_IN_KEPT}): the user, the request,
 *     the status
 * @param letInCount how many were let in, all told
 * @param kept whether the users and their databases were left after the run (-Dkeep=true)
 */
public record TenantsFigures(String load, String auth, int tenants, String iterations, List<ProbeTally> probes,
    long wrongPasswords, long wrongPasswordsRefused, List<String> letIn, long letInCount, boolean kept) {

  /**
   * One kind of security probe, over the run.
   *
   * @param request its request name
   * @param tried probes answered
   * @param refused those answered 401, 403 or 404
   */
  public record ProbeTally(String request, long tried, long refused) {}

  /** @return the probes answered, of every kind */
  public long probesTried() {
    return probes.stream().mapToLong(ProbeTally::tried).sum();
  }

  /** @return those refused */
  public long probesRefused() {
    return probes.stream().mapToLong(ProbeTally::refused).sum();
  }
}
