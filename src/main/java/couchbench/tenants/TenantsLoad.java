package couchbench.tenants;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.data.RandomText;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.targets.Credentials;
import couchbench.tenants.TenantsPlan.Auth;
import couchbench.variants.ConfigGuard;
import couchbench.variants.ConfigKey;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.Http;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * A login and a database per user, as an offline-first application has them: before the load, the users created in
 * {@code _users} (with -Diterations set in {@code [chttpd_auth] iterations} on every node first), each given a
 * database of its own ({@link TenantAccounts}); then each virtual user is one of them: a wrong password tried (it must
 * be refused), its login (-Dauth=cookie: {@code POST /_session}), its first request (the password's hash not yet
 * cached by the server), each {@link SecurityProbe} once, then reads and writes of its own documents, every
 * -DprobeEvery-th request a probe again. A probe or a wrong password let in fails the run, named. After the run the
 * users and databases are deleted (unless -Dkeep=true) and the setting restored, also when the run fails or is
 * stopped.
 */
public final class TenantsLoad implements ExperimentLoad<TenantsFigures> {

  /** CouchDB's PBKDF2 iterations for passwords hashed from now on; 600,000 by default in CouchDB 3.5. */
  public static final ConfigKey ITERATIONS = new ConfigKey("chttpd_auth", "iterations");

  /** A user's {@code POST /_session} (-Dauth=cookie). */
  public static final String LOGIN = "login";

  /** A user's first request with its login: CouchDB has not yet cached the password's hash (or the cookie's user). */
  public static final String FIRST_REQUEST = "first request";

  /** A read of one of the user's own documents, after its first request. */
  public static final String READ = "read";

  /** A write of a new document to the user's own database, after its first request. */
  public static final String WRITE = "write";

  /** The let-in requests the figures name; the rest are counted. */
  static final int LET_IN_KEPT = 20;

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TENANT = "couchbench.tenants.tenant";
  private static final String COUNT = "couchbench.tenants.count";
  private static final String PROBE = "couchbench.tenants.probe";
  private static final String STATUS = "couchbench.tenants.status";
  private static final String TOKEN = "couchbench.tenants.token";
  private static final int DOC_SIZE = 200;
  // A user's token outlives its run; the expired one lapsed a minute before it is sent.
  private static final Duration TOKEN_MARGIN = Duration.ofMinutes(10);
  private static final Duration EXPIRED = Duration.ofMinutes(1);

  private final TenantsPlan plan;
  private final CouchTarget couchdb;
  private final TenantAccounts accounts;
  private final AtomicInteger users = new AtomicInteger();
  private final AuthSettings authSettings;
  private final Map<SecurityProbe, LongAdder> probesTried = tallies(SecurityProbe.class);
  private final Map<SecurityProbe, LongAdder> probesRefused = tallies(SecurityProbe.class);
  private final Map<WrongLogin, LongAdder> wrongLoginsTried = tallies(WrongLogin.class);
  private final Map<WrongLogin, LongAdder> wrongLoginsRefused = tallies(WrongLogin.class);
  private final Queue<String> letIn = new ConcurrentLinkedQueue<>();
  private final AtomicLong letInCount = new AtomicLong();
  private final AtomicBoolean cleanedUp = new AtomicBoolean();
  private ConfigGuard settings;
  private String iterations = "not read";

  /**
   * @param plan the run's plan
   * @param couchdb the CouchDB server, with a server admin's login
   */
  public TenantsLoad(TenantsPlan plan, CouchTarget couchdb) {
    this.plan = plan;
    this.couchdb = couchdb;
    this.accounts = new TenantAccounts(plan, new CouchDbClient(couchdb));
    this.authSettings = new AuthSettings(plan.auth());
  }

  /**
   * @param auth how the request's user authenticates
   * @param request e.g. {@link #FIRST_REQUEST}
   * @return its name in Gatling's report and results.json, e.g. "cookie first request"
   */
  public static String named(Auth auth, String request) {
    return auth.word() + " " + request;
  }

  /**
   * Checks the login is a server admin's on Apache CouchDB, takes [chttpd_auth] iterations and, for -Dauth=jwt or
   * proxy, the {@link AuthSettings} (their values on every node kept in a restore file, put back after the run, on
   * failure and on Ctrl-C), sets -Diterations and the authentication's settings, then creates the users and their
   * databases.
   *
   * @throws TenantsException for a login that is not an admin's, a server without _config, a refusal while creating
   */
  @Override
  public void prepare() {
    CouchDbClient admin = new CouchDbClient(couchdb);
    checkServer(admin);
    Set<ConfigKey> keys = new LinkedHashSet<>(List.of(ITERATIONS));
    if (authSettings.changesServer()) {
      keys.addAll(authSettings.keys());
    }
    settings = ConfigGuard.take(List.of(couchdb), keys);
    AtExit.run(this::cleanUp);
    // CouchDB 3.5's default.ini leaves it unset: its built-in default is 600,000, as a user created then shows.
    String found = settings.original(couchdb, ITERATIONS).orElse("built-in default (600,000 in CouchDB 3.5)");
    plan.iterations().ifPresent(given -> settings.apply(Map.of(ITERATIONS, String.valueOf(given)), couchdb,
        "-Diterations=" + given));
    iterations = plan.iterations().isPresent() ? plan.iterations().getAsInt() + " (-Diterations, for the run; the"
        + " server's " + found + " restored after)" : "the server's " + found;
    Console.say("tenants: " + ITERATIONS + " = " + iterations);
    if (authSettings.changesServer()) {
      authSettings.apply(settings, couchdb);
      Console.say("tenants: -Dauth=" + plan.auth().word() + ": " + String.join(", ", authSettings.keys().stream()
          .map(ConfigKey::toString).toList()) + " set for the run (the secret drawn for it, never shown); CouchDB names"
          + " " + authSettings.handlerName() + " among its authentication handlers");
    }
    accounts.create();
  }

  // Tenants creates users and databases and changes a setting: a server admin's work, on Apache CouchDB 3.x.
  private void checkServer(CouchDbClient admin) {
    JsonNode context = ReplyJson.of(admin.get("/_session").body()).path("userCtx");
    List<String> roles = new ArrayList<>();
    context.path("roles").forEach(role -> roles.add(role.asText()));
    if (!roles.contains("_admin")) {
      throw new TenantsException(couchdb.describe() + " does not take the login " + (context.path("name").isTextual()
          ? "of user '" + context.path("name").asText() + "'" : "given (none)") + " as a server admin's (roles "
          + roles + "): Tenants creates users in _users and their databases, and sets " + ITERATIONS + " on every"
          + " node; give a server admin's -Dcouchdb.user and -Dcouchdb.password");
    }
    CouchReply config = admin.get("/_node/_local/_config");
    if (config.status() != 200 || !ReplyJson.of(config.body()).isObject()) {
      throw new TenantsException(couchdb.describe() + " answers GET /_node/_local/_config with " + config.status()
          + " (" + config.reason() + "): Tenants needs Apache CouchDB 3.x, whose _users keeps each user's document"
          + " from the others and whose settings that API changes (pouchdb-server has neither)");
    }
  }

  @Override
  public String describe() {
    return plan.describe();
  }

  @Override
  public List<String> couchDatabases() {
    return accounts.tenants().stream().map(Tenant::database).toList();
  }

  /** @return the step that makes a virtual user the next of the run's users */
  public Function<Session, Session> newUser() {
    return session -> {
      Tenant tenant = accounts.tenants().get(users.getAndIncrement() % plan.tenants());
      Session user = session.set(TENANT, tenant).set(COUNT, 0);
      return switch (plan.auth()) {
        case BASIC, COOKIE -> user;
        case JWT -> user.set(TOKEN, authSettings.jwt(tenant, Instant.now().plus(plan.duration()).plus(TOKEN_MARGIN)));
        case PROXY -> user.set(TOKEN, authSettings.proxyToken(tenant));
      };
    };
  }

  /**
   * @return a user's start: each {@link WrongLogin} of -Dauth (refused), its login (-Dauth=cookie), its first request,
   *     and each probe once
   */
  public ChainBuilder signIn() {
    ChainBuilder wrongLogins = exec(session -> session);
    for (WrongLogin kind : WrongLogin.of(plan.auth())) {
      wrongLogins = wrongLogins.exec(session -> session.remove(STATUS))
          .exec(wrongLogin(kind).check(status().saveAs(STATUS), status().in(kind.refusals().toArray(Integer[]::new))))
          .exec(session -> tallied(session, wrongLoginsTried.get(kind), wrongLoginsRefused.get(kind), kind.refusals(),
              kind.requestName(), kind == WrongLogin.WRONG_PASSWORD && plan.auth() == Auth.COOKIE ? "POST /_session"
                  : "GET /" + tenant(session).database()));
    }
    ChainBuilder loggedIn = plan.auth() == Auth.COOKIE
        ? wrongLogins.exec(http(named(plan.auth(), LOGIN)).post("/_session")
            .body(StringBody(session -> login(tenant(session).credentials()))))
        : wrongLogins;
    ChainBuilder first = loggedIn.exec(asUser(http(named(plan.auth(), FIRST_REQUEST)).get(session -> "/"
        + tenant(session).database() + "/" + TenantAccounts.seededId(0))));
    for (SecurityProbe probe : SecurityProbe.values()) {
      first = first.exec(session -> session.set(PROBE, probe)).exec(probe());
    }
    return first;
  }

  /** @return one steady request: every -DprobeEvery-th a probe, the next kind in turn; else a read or a write */
  public ChainBuilder nextRequest() {
    return exec(session -> session.set(COUNT, session.getInt(COUNT) + 1))
        .doIfOrElse(session -> session.getInt(COUNT) % plan.probeEvery() == 0)
        .then(exec(session -> session.set(PROBE, SecurityProbe.values()[(session.getInt(COUNT) / plan.probeEvery())
            % SecurityProbe.values().length])).exec(probe()))
        .orElse(doIfOrElse(session -> ThreadLocalRandom.current().nextDouble() < plan.read())
            .then(exec(asUser(http(named(plan.auth(), READ)).get(session -> "/" + tenant(session).database() + "/"
                + TenantAccounts.seededId(ThreadLocalRandom.current().nextInt(plan.docs()))))))
            .orElse(exec(asUser(http(named(plan.auth(), WRITE)).post(session -> "/" + tenant(session).database())
                .body(StringBody(session -> JSON.createObjectNode().put("text", RandomText.forKey(tenant(session)
                    .name() + ":" + session.getInt(COUNT), DOC_SIZE)).toString()))))));
  }

  /**
   * The probe the session names, sent as its user: answered 401, 403 or 404 it is refused; anything else is let in,
   * which fails the request and the run.
   */
  private ChainBuilder probe() {
    return exec(session -> session.remove(STATUS))
        .exec(asUser(http(session -> probe(session).requestName()).get(session -> probePath(session)))
            .check(status().saveAs(STATUS), status().in(SecurityProbe.REFUSALS.toArray(Integer[]::new))))
        .exec(session -> tallied(session, probesTried.get(probe(session)), probesRefused.get(probe(session)),
            SecurityProbe.REFUSALS, probe(session).requestName(), "GET " + probePath(session)));
  }

  private String probePath(Session session) {
    Tenant next = accounts.tenants().get((tenant(session).index() + 1) % plan.tenants());
    return probe(session).path(next, accounts.closedDatabase());
  }

  // A wrong password: the user's own database with it (basic), or a login with it (cookie); a wrong token: the user's
  // own database with it.
  private HttpRequestActionBuilder wrongLogin(WrongLogin kind) {
    Http request = http(kind.requestName());
    Function<Session, String> own = session -> "/" + tenant(session).database();
    return switch (kind) {
      case WRONG_PASSWORD -> plan.auth() == Auth.BASIC
          ? request.get(own).header("Authorization", session -> wrong(tenant(session).credentials()).authorization())
          : request.post("/_session").body(StringBody(session -> login(wrong(tenant(session).credentials()))));
      case WRONG_KEY -> request.get(own).header("Authorization", session -> "Bearer "
          + authSettings.jwtOfWrongKey(tenant(session), Instant.now().plus(TOKEN_MARGIN)));
      case EXPIRED_TOKEN -> request.get(own).header("Authorization", session -> "Bearer "
          + authSettings.jwt(tenant(session), Instant.now().minus(EXPIRED)));
      case WRONG_PROXY_TOKEN -> asProxied(request.get(own), session -> authSettings.wrongProxyToken(tenant(session)));
    };
  }

  private static Credentials wrong(Credentials credentials) {
    return new Credentials(credentials.user(), credentials.password() + "-wrong");
  }

  private static String login(Credentials credentials) {
    return JSON.createObjectNode().put("name", credentials.user()).put("password", credentials.password()).toString();
  }

  // Basic, JWT and proxy send the login with each request; a cookie is in the virtual user's cookie jar, which
  // Gatling replaces when CouchDB sends a renewed one (past a share of [chttpd_auth] timeout).
  private HttpRequestActionBuilder asUser(HttpRequestActionBuilder request) {
    return switch (plan.auth()) {
      case BASIC -> request.header("Authorization", session -> tenant(session).credentials().authorization());
      case COOKIE -> request;
      case JWT -> request.header("Authorization", session -> "Bearer " + session.getString(TOKEN));
      case PROXY -> asProxied(request, session -> session.getString(TOKEN));
    };
  }

  private static HttpRequestActionBuilder asProxied(HttpRequestActionBuilder request, Function<Session, String> token) {
    return request.header("X-Auth-CouchDB-UserName", session -> tenant(session).name())
        .header("X-Auth-CouchDB-Roles", AuthSettings.PROXY_ROLE).header("X-Auth-CouchDB-Token", token);
  }

  private Session tallied(Session session, LongAdder tried, LongAdder refused, Set<Integer> refusals, String request,
      String sent) {
    if (!session.contains(STATUS)) {
      return session; // no reply: Gatling counts it failed
    }
    tried.increment();
    int status = session.getInt(STATUS);
    if (refusals.contains(status)) {
      refused.increment();
      return session;
    }
    List<String> expected = refusals.stream().sorted().map(String::valueOf).toList();
    String line = "user " + tenant(session).name() + " was let in: " + request + ", " + sent + " answered " + status
        + " (expected " + String.join(", ", expected.subList(0, expected.size() - 1)) + " or "
        + expected.get(expected.size() - 1) + ")";
    if (letInCount.getAndIncrement() < LET_IN_KEPT) {
      letIn.add(line);
      Console.say("tenants: SECURITY: " + line);
    }
    return session;
  }

  private static Tenant tenant(Session session) {
    return (Tenant) session.get(TENANT);
  }

  private static SecurityProbe probe(Session session) {
    return (SecurityProbe) session.get(PROBE);
  }

  private static <K extends Enum<K>> Map<K, LongAdder> tallies(Class<K> kind) {
    Map<K, LongAdder> tallies = new EnumMap<>(kind);
    for (K each : kind.getEnumConstants()) {
      tallies.put(each, new LongAdder());
    }
    return tallies;
  }

  @Override
  public Summary<TenantsFigures> summary() {
    return new TenantsSummary();
  }

  @Override
  public TenantsFigures figures() {
    List<TenantsFigures.ProbeTally> probes = new ArrayList<>();
    for (SecurityProbe probe : SecurityProbe.values()) {
      probes.add(new TenantsFigures.ProbeTally(probe.requestName(), probesTried.get(probe).sum(),
          probesRefused.get(probe).sum()));
    }
    List<TenantsFigures.ProbeTally> wrongLogins = new ArrayList<>();
    for (WrongLogin kind : WrongLogin.of(plan.auth())) {
      wrongLogins.add(new TenantsFigures.ProbeTally(kind.requestName(), wrongLoginsTried.get(kind).sum(),
          wrongLoginsRefused.get(kind).sum()));
    }
    return new TenantsFigures(plan.describe(), plan.auth().word(), plan.tenants(), iterations, probes, wrongLogins,
        List.copyOf(letIn), letInCount.get(), plan.keep());
  }

  /**
   * Deletes the users and their databases (unless -Dkeep=true), then restores the settings taken; each once,
   * whether called after the page or as the JVM exits after a failure.
   */
  @Override
  public void cleanUp() {
    if (!cleanedUp.compareAndSet(false, true)) {
      return;
    }
    try {
      if (plan.keep()) {
        Console.say(String.format(Locale.ROOT, "tenants: -Dkeep=true: the %,d users (%s_*) and their databases left"
            + " in place", plan.tenants(), plan.prefix()));
      } else {
        accounts.delete();
      }
    } finally {
      if (settings != null) {
        settings.restore();
      }
    }
  }
}
