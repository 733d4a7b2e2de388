package couchbench.tenants;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a Tenants run's page shows beyond Gatling's timings of each request name: the users and their logins, and the
 * security checks tried and refused.
 *
 * @param load the load in words ({@link TenantsPlan#describe})
 * @param auths how the users authenticated: each method of -Dauth (basic, cookie, jwt, proxy) and its users
 * @param tenants the users created
 * @param iterations the PBKDF2 iterations their passwords were hashed with, and where that number came from
 * @param probes each security probe's tries and refusals
 * @param wrongLogins each method's kinds of wrong login, their tries and refusals, named by method ("basic wrong
 *     password"): a wrong password (basic, cookie), a token signed with a wrong key and an expired one (jwt), a wrong
 *     proxy token (proxy), an expired login cookie (cookie with -DcookieTimeout); once per user each
 * @param letIn every probe or wrong password let in (at most {@link TenantsTally#KEPT}): the user, the request,
 *     the status
 * @param letInCount how many were let in, all told
 * @param active which users were active: each its own session (-Dactive=all), or sessions drawn by a distribution
 * @param wall the databases CouchDB kept open second by second against max_dbs_open, and the requests it refused
 *     for want of one
 * @param failed every other failed request (at most {@link TenantsTally#KEPT}): its name and its answer
 * @param failedCount how many other requests failed, all told: any fails the run
 * @param kept whether the users and their databases were left after the run (-Dkeep=true)
 * @param cookieRenewals the renewed AuthSession cookies CouchDB sent with the users' reads and writes (-Dauth=cookie),
 *     each taken by the user's cookie jar; -1 without cookie among the methods
 * @param erlang CouchDB's Erlang processes and memory, each node's, before the users were made and over the load
 */
public record TenantsFigures(String load, List<Method> auths, int tenants, String iterations, List<ProbeTally> probes,
    List<ProbeTally> wrongLogins, List<String> letIn, long letInCount, Active active, Wall wall, List<String> failed,
    long failedCount, boolean kept, long cookieRenewals, Erlang erlang) {

  /**
   * One auth method of the run.
   *
   * @param auth its name, as -Dauth takes it
   * @param users the users authenticating by it: user k by the k-th method of -Dauth in turn
   * @param sessions the sessions of those users (each user one with -Dactive=all)
   */
  public record Method(String auth, int users, long sessions) {}

  /**
   * The sessions of the run and the users they were.
   *
   * @param distribution how each session's user was drawn: "all" (one session per user), "uniform" or "zipfian"
   * @param sessions the sessions (virtual users)
   * @param users the users with one session or more
   * @param busiest the sessions of the user with the most
   * @param busiestTenth the sessions of the tenth of the users with the most (at least one user)
   */
  public record Active(String distribution, int sessions, int users, int busiest, int busiestTenth) {}

  /**
   * The max_dbs_open wall.
   *
   * @param maxDbsOpen the limit in words, and where it came from: "10 (-DmaxDbsOpen, for the run; ...)"
   * @param limit the limit set for the run; 0 when the server's was kept
   * @param openAtStart the databases (shards) open as the limit was set, -1 when not read (no -DmaxDbsOpen)
   * @param refused the requests refused because no database could be opened, by the reply's reason
   * @param open each node's open databases and open files, second by second, from the servers' sampling
   * @param refusedBySecond each reason's refusals a second
   */
  public record Wall(String maxDbsOpen, int limit, long openAtStart, Map<String, Long> refused, List<Series> open,
      List<Series> refusedBySecond) {

    /** @return the refusals of every reason */
    public long refusedCount() {
      return refused.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /**
   * CouchDB's Erlang processes and memory, each node's, from its {@code _node/_local/_system}: each database (shard) a
   * node opens runs processes of its own, so the users' databases show here, and with -Ddatabases=peruser
   * couch_peruser's making them.
   *
   * @param databases -Ddatabases: own, peruser (couch_peruser on for the run) or shared
   * @param processes each node's Erlang processes
   * @param memory each node's Erlang memory, in MB
   */
  public record Erlang(String databases, List<Gauge> processes, List<Gauge> memory) {}

  /**
   * One node's figure over the run.
   *
   * @param series its name (e.g. "couchdb erlang processes") and its value each second of the load
   * @param beforeUsers its value before the users and their databases were made (the run's settings set); -1 when
   *     not read
   * @param start its value in the load's first second
   * @param peak its highest in the load
   * @param end its value in the load's last second
   */
  public record Gauge(Series series, double beforeUsers, double start, double peak, double end) {}

  /**
   * A figure second by second.
   *
   * @param name what it is, e.g. "couchdb open databases"
   * @param seconds seconds into the load
   * @param values its value in each
   */
  public record Series(String name, List<Long> seconds, List<Double> values) {

    static Series of(String name, Map<Long, Double> bySecond) {
      Map<Long, Double> sorted = new TreeMap<>(bySecond);
      return new Series(name, List.copyOf(sorted.keySet()), List.copyOf(sorted.values()));
    }
  }

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
