package couchbench.tenants;

import java.util.List;

/**
 * What a Tenants run's page shows beyond Gatling's timings of each request name: the users and their logins, and the
 * security checks tried and refused.
 *
 * @param load the load in words ({@link TenantsPlan#describe})
 * @param auth how the users authenticated: basic, cookie, jwt or proxy
 * @param tenants the users created
 * @param iterations the PBKDF2 iterations their passwords were hashed with, and where that number came from
 * @param probes each security probe's tries and refusals
 * @param wrongLogins each kind of wrong login's tries and refusals: a wrong password (basic, cookie), a token signed
 *     with a wrong key and an expired one (jwt), a wrong proxy token (proxy); once per user each
 * @param letIn every probe or wrong password let in (at most {@link TenantsLoad#LET_IN_KEPT}): the user, the request,
 *     the status
 * @param letInCount how many were let in, all told
 * @param kept whether the users and their databases were left after the run (-Dkeep=true)
 */
public record TenantsFigures(String load, String auth, int tenants, String iterations, List<ProbeTally> probes,
    List<ProbeTally> wrongLogins, List<String> letIn, long letInCount, boolean kept) {

  /**
   * One kind of security probe or wrong login, over the run.
   *
   * @param request its request name
   * @param tried requests answered
   * @param refused those refused (401, 403 or 404; a token of a wrong key 400 or 401)
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

  /** @return the wrong logins answered, of every kind */
  public long wrongLoginsTried() {
    return wrongLogins.stream().mapToLong(ProbeTally::tried).sum();
  }

  /** @return those refused */
  public long wrongLoginsRefused() {
    return wrongLogins.stream().mapToLong(ProbeTally::refused).sum();
  }
}
