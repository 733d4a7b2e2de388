package couchbench.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.Console;
import couchbench.startup.RunClock;
import couchbench.tenants.TenantsPlan.Auth;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * What a Tenants run counts as its users' requests come back, from every virtual user at once: each probe's and each
 * method's wrong logins' tries and refusals, what was let in and what failed (the first {@link #KEPT} of each in
 * words), the refusals for want of an open database by reason and second, the renewed cookies, each method's sessions.
 */
final class TenantsTally {

  /** The let-in and failed requests kept in words; the rest are counted. */
  static final int KEPT = 20;

  /**
   * One kind of check's tries, and those refused.
   *
   * @param tried answered
   * @param refused answered with a refusal
   */
  record Checks(LongAdder tried, LongAdder refused) {

    Checks() {
      this(new LongAdder(), new LongAdder());
    }

    TenantsFigures.ProbeTally tally(String request) {
      return new TenantsFigures.ProbeTally(request, tried.sum(), refused.sum());
    }
  }

  // In the order the users try them.
  private final Map<SecurityProbe, Checks> probes = new LinkedHashMap<>();
  // By request name, each method's in -Dauth's order.
  private final Map<String, Checks> wrongLogins = new LinkedHashMap<>();
  private final Map<Auth, LongAdder> sessions = new EnumMap<>(Auth.class);
  private final LongAdder cookieRenewals = new LongAdder();
  private final Queue<String> letIn = new ConcurrentLinkedQueue<>();
  private final AtomicLong letInCount = new AtomicLong();
  private final Queue<String> failed = new ConcurrentLinkedQueue<>();
  private final AtomicLong failedCount = new AtomicLong();
  private final Map<WallRefusal, LongAdder> wallRefused = byRefusal();
  private final Map<Long, Map<WallRefusal, LongAdder>> wallBySecond = new ConcurrentHashMap<>();

  /**
   * @param probes the run's probes
   * @param wrongLogins each method's wrong logins, by request name
   * @param auths the run's methods
   */
  TenantsTally(List<SecurityProbe> probes, List<String> wrongLogins, List<Auth> auths) {
    probes.forEach(probe -> this.probes.put(probe, new Checks()));
    wrongLogins.forEach(request -> this.wrongLogins.put(request, new Checks()));
    auths.forEach(auth -> sessions.put(auth, new LongAdder()));
  }

  /** @return a probe's tries and refusals */
  Checks probe(SecurityProbe probe) {
    return probes.get(probe);
  }

  /** @return a wrong login's tries and refusals, by its request name */
  Checks wrongLogin(String request) {
    return wrongLogins.get(request);
  }

  /** Counts a session of a user of that method. */
  void session(Auth auth) {
    sessions.get(auth).increment();
  }

  /** Counts renewed cookies CouchDB sent. */
  void renewed(int cookies) {
    cookieRenewals.add(cookies);
  }

  /** Counts a request let in that must be refused: said on the console, the first {@link #KEPT} kept. */
  void letIn(String line) {
    if (letInCount.getAndIncrement() < KEPT) {
      letIn.add(line);
      Console.say("tenants: SECURITY: " + line);
    }
  }

  /** Counts a request of a user's own that failed; the first {@link #KEPT} kept. */
  void failed(String line) {
    if (failedCount.getAndIncrement() < KEPT) {
      failed.add(line);
    }
  }

  /**
   * @param reply a 500's body
   * @return the refusal for want of an open database it is (max_dbs_open reached, none idle), counted by its reason
   *     and second; empty for any other
   */
  Optional<WallRefusal> wallRefusal(byte[] reply) {
    Optional<WallRefusal> refusal = WallRefusal.of(reply);
    refusal.ifPresent(kind -> {
      wallRefused.get(kind).increment();
      wallBySecond.computeIfAbsent(Math.floorDiv(RunClock.millis(), 1000), second -> byRefusal()).get(kind)
          .increment();
    });
    return refusal;
  }

  /** @return a 500's error and reason on one line, e.g. "(error: read_failure)"; a long reason (an Erlang term) cut */
  static String errorOf(byte[] body) {
    JsonNode reply = ReplyJson.of(body);
    String reason = reply.path("reason").asText("").replaceAll("\\s+", " ");
    return "(" + reply.path("error").asText("no error") + ": " + (reason.length() > 100 ? reason.substring(0, 100)
        + "..." : reason) + ")";
  }

  List<TenantsFigures.ProbeTally> probes() {
    List<TenantsFigures.ProbeTally> tallies = new ArrayList<>();
    probes.forEach((probe, checks) -> tallies.add(checks.tally(probe.requestName())));
    return tallies;
  }

  List<TenantsFigures.ProbeTally> wrongLogins() {
    List<TenantsFigures.ProbeTally> tallies = new ArrayList<>();
    wrongLogins.forEach((request, checks) -> tallies.add(checks.tally(request)));
    return tallies;
  }

  long sessions(Auth auth) {
    return sessions.get(auth).sum();
  }

  long cookieRenewals() {
    return cookieRenewals.sum();
  }

  List<String> letIn() {
    return List.copyOf(letIn);
  }

  long letInCount() {
    return letInCount.get();
  }

  List<String> failed() {
    return List.copyOf(failed);
  }

  long failedCount() {
    return failedCount.get();
  }

  /** @return the refusals for want of an open database, by reason */
  Map<String, Long> wallRefused() {
    Map<String, Long> refused = new LinkedHashMap<>();
    wallRefused.forEach((kind, count) -> refused.put(kind.reason(), count.sum()));
    return refused;
  }

  /**
   * @param firstSecond the load's first second, epoch
   * @param loadSeconds the load's seconds, epoch
   * @return each kind's refusals by second into the load: 0 in each second of the load without one
   */
  Map<WallRefusal, Map<Long, Double>> refusalSeconds(long firstSecond, List<Long> loadSeconds) {
    Map<WallRefusal, Map<Long, Double>> seconds = new EnumMap<>(WallRefusal.class);
    for (WallRefusal kind : WallRefusal.values()) {
      Map<Long, Double> bySecond = new HashMap<>();
      loadSeconds.forEach(second -> bySecond.put(second - firstSecond, 0.0));
      wallBySecond.forEach((epochSecond, counts) -> bySecond.put(epochSecond - firstSecond,
          (double) counts.get(kind).sum()));
      seconds.put(kind, bySecond);
    }
    return seconds;
  }

  private static Map<WallRefusal, LongAdder> byRefusal() {
    Map<WallRefusal, LongAdder> tallies = new EnumMap<>(WallRefusal.class);
    for (WallRefusal kind : WallRefusal.values()) {
      tallies.put(kind, new LongAdder());
    }
    return tallies;
  }
}
