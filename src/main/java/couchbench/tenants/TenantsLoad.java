package couchbench.tenants;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.http.HttpDsl.flushCookieJar;
import static io.gatling.javaapi.http.HttpDsl.headerRegex;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.data.RandomText;
import couchbench.distributions.Distribution;
import couchbench.results.LoadColumn;
import couchbench.results.RunOutput;
import couchbench.results.ServerSeries;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.startup.RunClock;
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
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import org.apache.commons.rng.simple.RandomSource;
import java.util.stream.Collectors;

/**
 * A login and a database per user, as an offline-first application has them: before the load, the users created in
 * {@code _users} (with -Diterations set in {@code [chttpd_auth] iterations} on every node first), each given a
 * database of its own, one made by couch_peruser, or its documents in a shared one ({@link TenantAccounts}); then each
 * virtual user is one of them: a wrong password tried (it must be refused), its login (-Dauth=cookie: {@code POST
 * /_session}), its first request (the password's hash not yet cached by the server), each {@link SecurityProbe} once,
 * then reads and writes of its own documents, every -DprobeEvery-th request a probe again, and with -DcookieTimeout its
 * login's cookie, expired by then. A probe or a wrong login let in fails the run, named. After the run the
 * users and databases are deleted (unless -Dkeep=true) and the setting restored, also when the run fails or is
 * stopped.
 */
public final class TenantsLoad implements ExperimentLoad<TenantsFigures> {

  /** CouchDB's PBKDF2 iterations for passwords hashed from now on; 600,000 by default in CouchDB 3.5. */
  public static final ConfigKey ITERATIONS = new ConfigKey("chttpd_auth", "iterations");

  /** How long an AuthSession cookie lasts, in seconds; CouchDB renews it in a reply once a tenth of it has passed. */
  public static final ConfigKey COOKIE_TIMEOUT = new ConfigKey("chttpd_auth", "timeout");

  /** How many databases CouchDB keeps open: opening one more closes an idle one, or is refused when none is idle. */
  public static final ConfigKey MAX_DBS_OPEN = new ConfigKey("couchdb", "max_dbs_open");

  /**
   * With -Ddatabases=peruser, set for the run: couch_peruser makes each user's database, deletes it with the user, and
   * names it as the run expects.
   */
  public static final Map<ConfigKey, String> PERUSER = peruser();

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
  private static final String FIRST_SESSION = "couchbench.tenants.firstSession";
  private static final String REPLY = "couchbench.tenants.reply";
  private static final String LOGIN_COOKIE = "couchbench.tenants.loginCookie";
  private static final String RENEWED = "couchbench.tenants.renewed";
  private static final Integer[] ANSWERED = {200, 201, 202};
  private static final String OPEN_DATABASES = " open databases (count)";
  private static final String OPEN_FILES = " open files (count)";
  private static final int DOC_SIZE = 200;
  // A user's token outlives its run; the expired one lapsed a minute before it is sent.
  private static final Duration TOKEN_MARGIN = Duration.ofMinutes(10);
  private static final Duration EXPIRED = Duration.ofMinutes(1);

  private final TenantsPlan plan;
  private final CouchTarget couchdb;
  private final TenantAccounts accounts;
  private final AtomicInteger users = new AtomicInteger();
  private final AuthSettings authSettings;
  private final Optional<ActiveUsers> activeUsers;
  private final List<SecurityProbe> probes;
  private final List<WrongLogin> wrongLoginKinds;
  private final LongAdder cookieRenewals = new LongAdder();
  private final Map<SecurityProbe, LongAdder> probesTried = tallies(SecurityProbe.class);
  private final Map<SecurityProbe, LongAdder> probesRefused = tallies(SecurityProbe.class);
  private final Map<WrongLogin, LongAdder> wrongLoginsTried = tallies(WrongLogin.class);
  private final Map<WrongLogin, LongAdder> wrongLoginsRefused = tallies(WrongLogin.class);
  private final Queue<String> letIn = new ConcurrentLinkedQueue<>();
  private final AtomicLong letInCount = new AtomicLong();
  private final Map<WallRefusal, LongAdder> wallRefused = tallies(WallRefusal.class);
  private final Map<Long, Map<WallRefusal, LongAdder>> wallBySecond = new ConcurrentHashMap<>();
  private final Queue<String> failed = new ConcurrentLinkedQueue<>();
  private final AtomicLong failedCount = new AtomicLong();
  private final AtomicBoolean cleanedUp = new AtomicBoolean();
  private final RunOutput run;
  private final ErlangOverRun erlang;
  private ConfigGuard settings;
  private String iterations = "not read";
  private String maxDbsOpen = "not read";
  private long openAtStart = -1;

  /**
   * @param plan the run's plan
   * @param couchdb the CouchDB server, with a server admin's login
   * @param run the run's output, whose servers' figures second by second give the open databases and files
   */
  public TenantsLoad(TenantsPlan plan, CouchTarget couchdb, RunOutput run) {
    this.plan = plan;
    this.couchdb = couchdb;
    this.run = run;
    this.accounts = new TenantAccounts(plan, new CouchDbClient(couchdb));
    this.erlang = new ErlangOverRun(couchdb, plan.databases());
    this.authSettings = new AuthSettings(plan.auth());
    this.probes = SecurityProbe.of(plan.databases());
    List<WrongLogin> kinds = new ArrayList<>(WrongLogin.of(plan.auth()));
    plan.cookieTimeout().ifPresent(timeout -> kinds.add(WrongLogin.EXPIRED_COOKIE));
    this.wrongLoginKinds = List.copyOf(kinds);
    this.activeUsers = plan.active() == TenantsPlan.Active.ALL ? Optional.empty() : Optional.of(new ActiveUsers(
        plan.active() == TenantsPlan.Active.ZIPFIAN ? Distribution.ZIPFIAN : Distribution.UNIFORM, plan.tenants(),
        RandomSource.XO_RO_SHI_RO_128_PP.create()));
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
   * Checks the login is a server admin's on Apache CouchDB, takes [chttpd_auth] iterations, [couchdb] max_dbs_open
   * and, for -Dauth=jwt or proxy, the {@link AuthSettings} (their values on every node kept in a restore file, put back
   * after the run, on failure and on Ctrl-C), sets -Diterations, -DmaxDbsOpen and the authentication's settings, then
   * creates the users and their databases.
   *
   * @throws TenantsException for a login that is not an admin's, a server without _config, a refusal while creating
   */
  @Override
  public void prepare() {
    CouchDbClient admin = new CouchDbClient(couchdb);
    checkServer(admin);
    Set<ConfigKey> keys = new LinkedHashSet<>(List.of(ITERATIONS, MAX_DBS_OPEN));
    if (authSettings.changesServer()) {
      keys.addAll(authSettings.keys());
    }
    if (plan.databases() == TenantsPlan.Databases.PERUSER) {
      keys.addAll(PERUSER.keySet());
    }
    if (plan.cookieTimeout().isPresent()) {
      keys.add(COOKIE_TIMEOUT);
    }
    settings = ConfigGuard.take(List.of(couchdb), keys);
    AtExit.run(this::cleanUp);
    // One apply for all: a guard's apply puts back what it is not given.
    Map<ConfigKey, String> forRun = new LinkedHashMap<>();
    // CouchDB 3.5's default.ini leaves both unset: its built-in defaults are 600,000 (as a user created then shows) and
    // 500.
    iterations = forRun(forRun, ITERATIONS, plan.iterations(), "iterations", "600,000");
    maxDbsOpen = forRun(forRun, MAX_DBS_OPEN, plan.maxDbsOpen(), "maxDbsOpen", "500");
    if (plan.databases() == TenantsPlan.Databases.PERUSER) {
      forRun.putAll(PERUSER);
    }
    plan.cookieTimeout().ifPresent(timeout -> forRun.put(COOKIE_TIMEOUT, String.valueOf(timeout)));
    if (authSettings.changesServer()) {
      forRun.putAll(authSettings.values(settings, couchdb));
    }
    settings.apply(forRun, couchdb, forRun.keySet().stream().map(ConfigKey::toString).collect(Collectors.joining(
        ", ", "Tenants' settings for the run (", ")")));
    Console.say("tenants: " + ITERATIONS + " = " + iterations + "; " + MAX_DBS_OPEN + " = " + maxDbsOpen);
    if (authSettings.changesServer()) {
      authSettings.awaitHandler(couchdb);
      Console.say("tenants: -Dauth=" + plan.auth().word() + ": " + String.join(", ", authSettings.keys().stream()
          .map(ConfigKey::toString).toList()) + " set for the run (the secret drawn for it, never shown); CouchDB names"
          + " " + authSettings.handlerName() + " among its authentication handlers");
    }
    plan.maxDbsOpen().ifPresent(limit -> openAtStart = openDatabasesAbove(admin, limit));
    erlang.readBeforeUsers();
    accounts.create();
  }

  private static Map<ConfigKey, String> peruser() {
    Map<ConfigKey, String> peruser = new LinkedHashMap<>();
    peruser.put(new ConfigKey("couch_peruser", "enable"), "true");
    peruser.put(new ConfigKey("couch_peruser", "delete_dbs"), "true");
    peruser.put(new ConfigKey("couch_peruser", "database_prefix"), TenantAccounts.PERUSER_PREFIX);
    return Collections.unmodifiableMap(peruser);
  }

  // A setting the run may set: its value for the run put in forRun when given; in words, with where it came from.
  private String forRun(Map<ConfigKey, String> forRun, ConfigKey key, OptionalInt given, String property,
      String builtIn) {
    String found = settings.original(couchdb, key).orElse("built-in default (" + builtIn + " in CouchDB 3.5)");
    if (given.isEmpty()) {
      return "the server's " + found;
    }
    forRun.put(key, String.valueOf(given.getAsInt()));
    return given.getAsInt() + " (-D" + property + ", for the run; the server's " + found + " restored after)";
  }

  // CouchDB 3.5 closes no database when max_dbs_open is lowered: each one opened after closes an idle one, so the
  // count holds where it was. Said when it is above the limit; -1 when it cannot be read.
  private long openDatabasesAbove(CouchDbClient admin, int limit) {
    CouchReply stats = admin.get("/_node/_local/_stats/couchdb/open_databases");
    if (stats.status() != 200) {
      return -1;
    }
    long open = ReplyJson.of(stats.body()).path("value").asLong(-1);
    if (open > limit) {
      Console.say(String.format(Locale.ROOT, "tenants: %,d databases (shards) open on %s, above -DmaxDbsOpen=%d:"
          + " CouchDB closes none when the limit is lowered, each database opened from now on closes an idle one, so"
          + " the count holds at %,d; restart the node with the limit in its ini to start below it", open,
          couchdb.describe(), limit, open));
    }
    return open;
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
    return accounts.tenants().stream().map(Tenant::database).distinct().toList();
  }

  /**
   * @return the step that makes a virtual user a session of the next of the run's users (-Dactive=all), or of one
   *     drawn by -Dactive's distribution
   */
  public Function<Session, Session> newUser() {
    return session -> {
      ActiveUsers.Draw draw = activeUsers.map(ActiveUsers::next)
          .orElseGet(() -> new ActiveUsers.Draw(users.getAndIncrement() % plan.tenants(), true));
      Tenant tenant = accounts.tenants().get(draw.user());
      Session user = session.set(TENANT, tenant).set(COUNT, 0).set(FIRST_SESSION, draw.first());
      return switch (plan.auth()) {
        case BASIC, COOKIE -> user;
        case JWT -> user.set(TOKEN, authSettings.jwt(tenant, Instant.now().plus(plan.duration()).plus(TOKEN_MARGIN)));
        case PROXY -> user.set(TOKEN, authSettings.proxyToken(tenant));
      };
    };
  }

  /**
   * @return a user's start: each {@link WrongLogin} of -Dauth (refused; in its first session alone, so that a user of
   *     many sessions is not locked out), its login (-Dauth=cookie), its first request, and each probe once
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
    wrongLogins = exec(doIf(session -> session.getBoolean(FIRST_SESSION)).then(wrongLogins));
    // The login's cookie is kept aside for the expired cookie tried at the end (-DcookieTimeout).
    ChainBuilder loggedIn = plan.auth() == Auth.COOKIE
        ? wrongLogins.exec(sent(named(plan.auth(), LOGIN), http(named(plan.auth(), LOGIN)).post("/_session")
            .body(StringBody(session -> login(tenant(session).credentials())))
            .check(headerRegex("Set-Cookie", "AuthSession=([^;]*)").optional().saveAs(LOGIN_COOKIE))))
        : wrongLogins;
    ChainBuilder first = loggedIn.exec(sent(named(plan.auth(), FIRST_REQUEST), asUser(http(named(plan.auth(),
        FIRST_REQUEST)).get(session -> "/" + tenant(session).database() + "/" + tenant(session).docId(0)))));
    for (SecurityProbe probe : probes) {
      first = first.exec(session -> session.set(PROBE, probe)).exec(probe());
    }
    return first;
  }

  /**
   * @return a user's end: with -DcookieTimeout (-Dauth=cookie), in its first session, its cookie jar emptied and its
   *     own database asked with the cookie of its login, expired by now, which must be refused; else nothing
   */
  public ChainBuilder signOff() {
    if (plan.cookieTimeout().isEmpty()) {
      return exec(session -> session);
    }
    WrongLogin kind = WrongLogin.EXPIRED_COOKIE;
    return exec(doIf(session -> session.getBoolean(FIRST_SESSION) && session.contains(LOGIN_COOKIE)).then(
        exec(flushCookieJar()).exec(session -> session.remove(STATUS))
            .exec(wrongLogin(kind).check(status().saveAs(STATUS), status().in(kind.refusals().toArray(Integer[]::new))))
            .exec(session -> tallied(session, wrongLoginsTried.get(kind), wrongLoginsRefused.get(kind),
                kind.refusals(), kind.requestName(), "GET /" + tenant(session).database() + " with its login's cookie"))));
  }

  /** @return one steady request: every -DprobeEvery-th a probe, the next kind in turn; else a read or a write */
  public ChainBuilder nextRequest() {
    return exec(session -> session.set(COUNT, session.getInt(COUNT) + 1))
        .doIfOrElse(session -> session.getInt(COUNT) % plan.probeEvery() == 0)
        .then(exec(session -> session.set(PROBE, probes.get((session.getInt(COUNT) / plan.probeEvery())
            % probes.size()))).exec(probe()))
        .orElse(doIfOrElse(session -> ThreadLocalRandom.current().nextDouble() < plan.read())
            .then(sent(named(plan.auth(), READ), asUser(http(named(plan.auth(), READ)).get(session -> "/"
                + tenant(session).database() + "/" + tenant(session).docId(ThreadLocalRandom.current()
                    .nextInt(plan.docs()))))))
            .orElse(sent(named(plan.auth(), WRITE), asUser(http(named(plan.auth(), WRITE)).post(session -> "/"
                + tenant(session).database()).body(StringBody(session -> JSON.createObjectNode()
                    .put("owner", tenant(session).name()).put("text", RandomText.forKey(tenant(session).name() + ":"
                        + session.getInt(COUNT), DOC_SIZE)).toString()))))));
  }

  /**
   * The probe the session names, sent as its user: answered 401, 403 or 404 it is refused; anything else is let in,
   * which fails the request and the run.
   */
  private ChainBuilder probe() {
    Http request = http(session -> probe(session).requestName());
    return exec(session -> session.remove(STATUS).remove(REPLY))
        .doIfOrElse(session -> probe(session) == SecurityProbe.WRITE_OVER)
        .then(exec(refusedOnly(request.put(this::probePath).body(StringBody(this::writeOver)))))
        .orElse(exec(refusedOnly(request.get(this::probePath))))
        .exec(session -> tallied(session, probesTried.get(probe(session)), probesRefused.get(probe(session)),
            SecurityProbe.REFUSALS, probe(session).requestName(), (probe(session) == SecurityProbe.WRITE_OVER
                ? "PUT " : "GET ") + probePath(session)));
  }

  private HttpRequestActionBuilder refusedOnly(HttpRequestActionBuilder request) {
    return asUser(request).check(status().saveAs(STATUS), status().in(SecurityProbe.REFUSALS.toArray(Integer[]::new)));
  }

  // The next user's first document as seeded, still its owner's, with a text of the prober's: a write a user of the
  // shared database may send, that only the validate_doc_update refuses.
  private String writeOver(Session session) {
    Tenant next = next(session);
    return JSON.createObjectNode().put("_rev", accounts.firstRev(next)).put("owner", next.name()).put("text",
        "written over by " + tenant(session).name()).toString();
  }

  private String probePath(Session session) {
    return probe(session).path(next(session), accounts.closedDatabase());
  }

  private Tenant next(Session session) {
    return accounts.tenants().get((tenant(session).index() + 1) % plan.tenants());
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
      case EXPIRED_COOKIE -> request.get(own).header("Cookie", session -> "AuthSession="
          + session.getString(LOGIN_COOKIE));
    };
  }

  private static Credentials wrong(Credentials credentials) {
    return new Credentials(credentials.user(), credentials.password() + "-wrong");
  }

  private static String login(Credentials credentials) {
    return JSON.createObjectNode().put("name", credentials.user()).put("password", credentials.password()).toString();
  }

  /**
   * A request of the user's own, answered 200, 201 or 202; a refusal by {@link WallRefusal} is counted apart, any other
   * failure counted and named, and the failure the run's.
   */
  private ChainBuilder sent(String name, HttpRequestActionBuilder request) {
    return exec(session -> session.remove(STATUS).remove(REPLY).remove(RENEWED))
        .exec(request.check(status().saveAs(STATUS), status().in(ANSWERED)))
        .exec(session -> {
          if (session.contains(RENEWED)) {
            cookieRenewals.add(session.getList(RENEWED).size());
          }
          if (wallRefusal(session).isEmpty() && session.isFailed()) {
            failed(name + ": " + (session.contains(STATUS) ? "answered " + session.getInt(STATUS) : "no reply")
                + (session.contains(REPLY) ? " " + errorOf((byte[]) session.get(REPLY)) : ""));
          }
          return session.markAsSucceeded();
        });
  }

  // A 500's error and reason on one line, e.g. "(error: read_failure)"; a long reason (an Erlang term) cut.
  private static String errorOf(byte[] body) {
    JsonNode reply = ReplyJson.of(body);
    String reason = reply.path("reason").asText("").replaceAll("\\s+", " ");
    return "(" + reply.path("error").asText("no error") + ": " + (reason.length() > 100 ? reason.substring(0, 100)
        + "..." : reason) + ")";
  }

  private void failed(String line) {
    if (failedCount.getAndIncrement() < LET_IN_KEPT) {
      failed.add(line);
    }
  }

  // A 500 that CouchDB answers when it cannot open the database (max_dbs_open reached, none idle): counted by its
  // reason and second, once.
  private Optional<WallRefusal> wallRefusal(Session session) {
    if (!session.contains(REPLY)) {
      return Optional.empty();
    }
    Optional<WallRefusal> refusal = WallRefusal.of((byte[]) session.get(REPLY));
    refusal.ifPresent(kind -> {
      wallRefused.get(kind).increment();
      wallBySecond.computeIfAbsent(Math.floorDiv(RunClock.millis(), 1000), second -> tallies(WallRefusal.class))
          .get(kind).increment();
    });
    return refusal;
  }

  // Basic, JWT and proxy send the login with each request; a cookie is in the virtual user's cookie jar, which
  // Gatling replaces when CouchDB sends a renewed one (once a tenth of [chttpd_auth] timeout has passed): those are
  // counted. A 500's body is kept for wallRefusal (the first check: Gatling keeps the first that fails).
  private HttpRequestActionBuilder asUser(HttpRequestActionBuilder request) {
    return withLogin(request.checkIf((response, session) -> response.status().code() == 500)
        .then(bodyBytes().saveAs(REPLY)));
  }

  private HttpRequestActionBuilder withLogin(HttpRequestActionBuilder request) {
    return switch (plan.auth()) {
      case BASIC -> request.header("Authorization", session -> tenant(session).credentials().authorization());
      case COOKIE -> request.check(headerRegex("Set-Cookie", "AuthSession=[^;]+").findAll().optional()
          .saveAs(RENEWED));
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
    // Each outcome counted here once; the session's failure is not carried to the user's next request.
    if (!session.contains(STATUS)) {
      failed(request + ": no reply");
      return session.markAsSucceeded();
    }
    if (wallRefusal(session).isPresent()) {
      return session.markAsSucceeded(); // neither let in nor refused: the database could not be opened
    }
    tried.increment();
    int status = session.getInt(STATUS);
    if (refusals.contains(status)) {
      refused.increment();
      return session.markAsSucceeded();
    }
    List<String> expected = refusals.stream().sorted().map(String::valueOf).toList();
    String line = "user " + tenant(session).name() + " was let in: " + request + ", " + sent + " answered " + status
        + " (expected " + String.join(", ", expected.subList(0, expected.size() - 1)) + " or "
        + expected.get(expected.size() - 1) + ")";
    if (letInCount.getAndIncrement() < LET_IN_KEPT) {
      letIn.add(line);
      Console.say("tenants: SECURITY: " + line);
    }
    return session.markAsSucceeded();
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
    List<TenantsFigures.ProbeTally> tried = new ArrayList<>();
    for (SecurityProbe probe : probes) {
      tried.add(new TenantsFigures.ProbeTally(probe.requestName(), probesTried.get(probe).sum(),
          probesRefused.get(probe).sum()));
    }
    List<TenantsFigures.ProbeTally> wrongLogins = new ArrayList<>();
    for (WrongLogin kind : wrongLoginKinds) {
      wrongLogins.add(new TenantsFigures.ProbeTally(kind.requestName(), wrongLoginsTried.get(kind).sum(),
          wrongLoginsRefused.get(kind).sum()));
    }
    Map<String, Long> refused = new LinkedHashMap<>();
    wallRefused.forEach((kind, count) -> refused.put(kind.reason(), count.sum()));
    List<TenantsFigures.Series> open = new ArrayList<>();
    ServerSeries servers = run.serverSeries();
    for (String column : servers.columns()) {
      if (column.endsWith(OPEN_DATABASES) || column.endsWith(OPEN_FILES)) {
        open.add(TenantsFigures.Series.of(column.replace(" (count)", ""), servers.bySecond(column,
            run.loadStartMillis())));
      }
    }
    List<TenantsFigures.Series> refusedBySecond = new ArrayList<>();
    refusalSeconds().forEach((kind, bySecond) -> refusedBySecond.add(TenantsFigures.Series.of(kind.reason(),
        bySecond)));
    TenantsFigures.Wall wall = new TenantsFigures.Wall(maxDbsOpen, plan.maxDbsOpen().orElse(0), openAtStart, refused,
        open, refusedBySecond);
    return new TenantsFigures(plan.describe(), plan.auth().word(), plan.tenants(), iterations, tried, wrongLogins,
        List.copyOf(letIn), letInCount.get(), activeUsers.map(drawn -> drawn.drawn(plan.active().word()))
        .orElseGet(() -> new TenantsFigures.Active(plan.active().word(), plan.tenants(), plan.tenants(), 1,
            Math.max(1, plan.tenants() / 10))), wall, List.copyOf(failed), failedCount.get(), plan.keep(),
        plan.auth() == Auth.COOKIE ? cookieRenewals.sum() : -1, erlang.figures(servers, run.loadStartMillis()));
  }

  /** @return each {@link WallRefusal}'s count a second, a column of its own beside the run's requests' */
  @Override
  public List<LoadColumn> secondsColumns() {
    List<LoadColumn> columns = new ArrayList<>();
    refusalSeconds().forEach((kind, bySecond) -> columns.add(new LoadColumn(kind.column(), bySecond)));
    return columns;
  }

  // Each kind's refusals by second into the load: 0 in each second of the load without one.
  private Map<WallRefusal, Map<Long, Double>> refusalSeconds() {
    long first = Math.floorDiv(run.loadStartMillis(), 1000);
    Map<WallRefusal, Map<Long, Double>> seconds = new EnumMap<>(WallRefusal.class);
    for (WallRefusal kind : WallRefusal.values()) {
      Map<Long, Double> bySecond = new HashMap<>();
      run.loadSeconds().forEach(second -> bySecond.put(second.epochSecond() - first, 0.0));
      wallBySecond.forEach((epochSecond, counts) -> bySecond.put(epochSecond - first,
          (double) counts.get(kind).sum()));
      seconds.put(kind, bySecond);
    }
    return seconds;
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
