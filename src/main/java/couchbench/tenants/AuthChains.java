package couchbench.tenants;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.doIfOrElse;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.Cookie;
import static io.gatling.javaapi.http.HttpDsl.addCookie;
import static io.gatling.javaapi.http.HttpDsl.flushCookieJar;
import static io.gatling.javaapi.http.HttpDsl.headerRegex;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.data.RandomText;
import couchbench.targets.Credentials;
import couchbench.tenants.TenantsPlan.Auth;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.Http;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The Gatling chains of the users of one auth method: their start (each wrong login of the method in their first
 * session, the login of cookie auth, the first request, each {@link SecurityProbe} once), their steady requests and
 * their end (with -DcookieTimeout, a cookie user's expired login cookie). Every request of a user carries the method's
 * login and is named by it, e.g. "jwt read"; {@link TenantsLoad} sends each session down its user's method's chains.
 * A probe or a wrong login let in, or a request of the user's own that fails, is counted in the run's
 * {@link TenantsTally}.
 */
final class AuthChains {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TENANT = "couchbench.tenants.tenant";
  private static final String COUNT = "couchbench.tenants.count";
  private static final String FIRST_SESSION = "couchbench.tenants.firstSession";
  private static final String PROBE = "couchbench.tenants.probe";
  private static final String STATUS = "couchbench.tenants.status";
  private static final String TOKEN = "couchbench.tenants.token";
  private static final String REPLY = "couchbench.tenants.reply";
  private static final String LOGIN_COOKIE = "couchbench.tenants.loginCookie";
  private static final String FRESH = "couchbench.tenants.loginCookieFresh";
  private static final String RENEWED = "couchbench.tenants.renewed";
  private static final Integer[] ANSWERED = {200, 201, 202};
  private static final int DOC_SIZE = 200;
  // A user's token outlives its run; the expired one lapsed a minute before it is sent.
  private static final Duration TOKEN_MARGIN = Duration.ofMinutes(10);
  private static final Duration EXPIRED = Duration.ofMinutes(1);

  private final Auth auth;
  private final TenantsPlan plan;
  private final TenantAccounts accounts;
  private final AuthSettings authSettings;
  private final List<SecurityProbe> probes;
  private final TenantsTally tally;

  /**
   * @param auth the users' method
   * @param plan the run's plan
   * @param accounts the run's users
   * @param authSettings the run's keys and secrets
   * @param tally where the run's outcomes are counted
   */
  AuthChains(Auth auth, TenantsPlan plan, TenantAccounts accounts, AuthSettings authSettings, TenantsTally tally) {
    this.auth = auth;
    this.plan = plan;
    this.accounts = accounts;
    this.authSettings = authSettings;
    this.probes = SecurityProbe.of(plan.databases());
    this.tally = tally;
  }

  /**
   * @param auth a method of the run
   * @param plan the run's plan
   * @return the request names of the wrong logins its users try: those of {@link WrongLogin#of}, and with
   *     -DcookieTimeout a cookie user's expired cookie
   */
  static List<String> wrongLogins(Auth auth, TenantsPlan plan) {
    List<String> names = new ArrayList<>();
    WrongLogin.of(auth).forEach(kind -> names.add(TenantsLoad.named(auth, kind.requestName())));
    if (auth == Auth.COOKIE && plan.cookieTimeout().isPresent()) {
      names.add(TenantsLoad.named(auth, WrongLogin.EXPIRED_COOKIE.requestName()));
    }
    return names;
  }

  /**
   * @param session a new virtual user's
   * @param tenant the user it is a session of
   * @param first whether it is that user's first session
   * @return it, that user's
   */
  static Session startSession(Session session, Tenant tenant, boolean first) {
    return session.set(TENANT, tenant).set(COUNT, 0).set(FIRST_SESSION, first);
  }

  /** @return the user a session is of */
  static Tenant tenant(Session session) {
    return (Tenant) session.get(TENANT);
  }

  /**
   * @return a user's start: its token (jwt, proxy), each {@link WrongLogin} of the method (refused; in its first
   *     session alone, so that a user of many sessions is not locked out), its login (cookie; with -DcookieTimeout its
   *     cookie then shown let in while fresh), its first request, and each probe once
   */
  ChainBuilder signIn() {
    ChainBuilder wrongLogins = exec(session -> session);
    for (WrongLogin kind : WrongLogin.of(auth)) {
      String name = TenantsLoad.named(auth, kind.requestName());
      wrongLogins = wrongLogins.exec(session -> session.remove(STATUS))
          .exec(wrongLogin(kind).check(status().saveAs(STATUS), status().in(kind.refusals().toArray(Integer[]::new))))
          .exec(session -> tallied(session, tally.wrongLogin(name), kind.refusals(), name,
              kind == WrongLogin.WRONG_PASSWORD && auth == Auth.COOKIE ? "POST /_session"
                  : "GET /" + tenant(session).database()));
    }
    ChainBuilder start = exec(this::withToken).exec(doIf(session -> session.getBoolean(FIRST_SESSION))
        .then(wrongLogins));
    if (auth == Auth.COOKIE) {
      // The login's cookie is kept aside for the expired cookie tried at the end (-DcookieTimeout).
      start = start.exec(sent(TenantsLoad.named(auth, TenantsLoad.LOGIN), http(TenantsLoad.named(auth,
          TenantsLoad.LOGIN)).post("/_session").body(StringBody(session -> login(tenant(session).credentials())))
          .check(headerRegex("Set-Cookie", "AuthSession=([^;]*)").optional().saveAs(LOGIN_COOKIE))));
      if (plan.cookieTimeout().isPresent()) {
        start = start.exec(doIf(session -> session.getBoolean(FIRST_SESSION) && session.contains(LOGIN_COOKIE))
            .then(freshCookie()));
      }
    }
    ChainBuilder first = start.exec(sent(TenantsLoad.named(auth, TenantsLoad.FIRST_REQUEST), asUser(http(
        TenantsLoad.named(auth, TenantsLoad.FIRST_REQUEST)).get(session -> "/" + tenant(session).database() + "/"
        + tenant(session).docId(0)))));
    for (SecurityProbe probe : probes) {
      first = first.exec(session -> session.set(PROBE, probe)).exec(probe());
    }
    return first;
  }

  // What basic, JWT and proxy users send with each request is made once per session, not per request: basic's and
  // JWT's Authorization header, the proxy's token; cookie users carry none.
  private Session withToken(Session session) {
    return switch (auth) {
      case BASIC -> session.set(TOKEN, tenant(session).credentials().authorization());
      case COOKIE -> session;
      case JWT -> session.set(TOKEN, "Bearer " + authSettings.jwt(tenant(session), Instant.now().plus(plan.duration())
          .plus(TOKEN_MARGIN)));
      case PROXY -> session.set(TOKEN, authSettings.proxyToken(tenant(session)));
    };
  }

  // The login's cookie, exactly as saved, alone (the cookie jar emptied, then given it back): its own database must
  // let it in, so that the same cookie refused at the end was refused for its age, not for its form.
  private ChainBuilder freshCookie() {
    String name = TenantsLoad.named(auth, TenantsLoad.FRESH_COOKIE);
    return exec(flushCookieJar())
        .exec(sent(name, answered(http(name).get(session -> "/" + tenant(session).database())
            .header("Cookie", session -> "AuthSession=" + session.getString(LOGIN_COOKIE)))))
        .exec(session -> session.contains(STATUS) && session.getInt(STATUS) == 200 ? session.set(FRESH, true)
            : session)
        .exec(addCookie(Cookie("AuthSession", session -> session.getString(LOGIN_COOKIE)).withPath("/")));
  }

  /**
   * @return a user's end: with -DcookieTimeout (a cookie user), in its first session and once its login's cookie was
   *     let in while fresh, its cookie jar emptied and its own database asked with that cookie, expired by now, which
   *     must be refused; else nothing
   */
  ChainBuilder signOff() {
    if (auth != Auth.COOKIE || plan.cookieTimeout().isEmpty()) {
      return exec(session -> session);
    }
    WrongLogin kind = WrongLogin.EXPIRED_COOKIE;
    String name = TenantsLoad.named(auth, kind.requestName());
    return exec(doIf(session -> session.getBoolean(FIRST_SESSION) && session.contains(FRESH)).then(
        exec(flushCookieJar()).exec(session -> session.remove(STATUS))
            .exec(wrongLogin(kind).check(status().saveAs(STATUS), status().in(kind.refusals().toArray(Integer[]::new))))
            .exec(session -> tallied(session, tally.wrongLogin(name), kind.refusals(), name, "GET /"
                + tenant(session).database() + " with its login's cookie"))));
  }

  /** @return one steady request: every -DprobeEvery-th a probe, the next kind in turn; else a read or a write */
  ChainBuilder nextRequest() {
    String read = TenantsLoad.named(auth, TenantsLoad.READ);
    String write = TenantsLoad.named(auth, TenantsLoad.WRITE);
    return exec(session -> session.set(COUNT, session.getInt(COUNT) + 1))
        .doIfOrElse(session -> session.getInt(COUNT) % plan.probeEvery() == 0)
        .then(exec(session -> session.set(PROBE, probes.get((session.getInt(COUNT) / plan.probeEvery())
            % probes.size()))).exec(probe()))
        .orElse(doIfOrElse(session -> ThreadLocalRandom.current().nextDouble() < plan.read())
            .then(sent(read, asUser(http(read).get(session -> "/" + tenant(session).database() + "/"
                + tenant(session).docId(ThreadLocalRandom.current().nextInt(plan.docs()))))))
            .orElse(sent(write, asUser(http(write).post(session -> "/" + tenant(session).database())
                .body(StringBody(session -> JSON.createObjectNode().put("owner", tenant(session).name())
                    .put("text", RandomText.forKey(tenant(session).name() + ":" + session.getInt(COUNT), DOC_SIZE))
                    .toString()))))));
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
        .exec(session -> tallied(session, tally.probe(probe(session)), SecurityProbe.REFUSALS,
            probe(session).requestName(), (probe(session) == SecurityProbe.WRITE_OVER ? "PUT " : "GET ")
                + probePath(session)));
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
    Http request = http(TenantsLoad.named(auth, kind.requestName()));
    Function<Session, String> own = session -> "/" + tenant(session).database();
    return switch (kind) {
      case WRONG_PASSWORD -> auth == Auth.BASIC
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
            tally.renewed(session.getList(RENEWED).size());
          }
          if (wallRefusal(session).isEmpty() && session.isFailed()) {
            tally.failed(name + ": " + (session.contains(STATUS) ? "answered " + session.getInt(STATUS) : "no reply")
                + (session.contains(REPLY) ? " " + TenantsTally.errorOf((byte[]) session.get(REPLY)) : ""));
          }
          return session.markAsSucceeded();
        });
  }

  // A 500 that CouchDB answers when it cannot open the database (max_dbs_open reached, none idle): counted once.
  private Optional<WallRefusal> wallRefusal(Session session) {
    return session.contains(REPLY) ? tally.wallRefusal((byte[]) session.get(REPLY)) : Optional.empty();
  }

  // Basic, JWT and proxy send the login with each request; a cookie is in the virtual user's cookie jar, which
  // Gatling replaces when CouchDB sends a renewed one (once a tenth of [chttpd_auth] timeout has passed): those are
  // counted.
  private HttpRequestActionBuilder asUser(HttpRequestActionBuilder request) {
    HttpRequestActionBuilder answered = answered(request);
    return switch (auth) {
      case BASIC, JWT -> answered.header("Authorization", session -> session.getString(TOKEN));
      case COOKIE -> answered.check(headerRegex("Set-Cookie", "AuthSession=[^;]+").findAll().optional()
          .saveAs(RENEWED));
      case PROXY -> asProxied(answered, session -> session.getString(TOKEN));
    };
  }

  // A 500's body is kept for wallRefusal (the first check: Gatling keeps the first that fails).
  private static HttpRequestActionBuilder answered(HttpRequestActionBuilder request) {
    return request.checkIf((response, session) -> response.status().code() == 500).then(bodyBytes().saveAs(REPLY));
  }

  private static HttpRequestActionBuilder asProxied(HttpRequestActionBuilder request, Function<Session, String> token) {
    return request.header("X-Auth-CouchDB-UserName", session -> tenant(session).name())
        .header("X-Auth-CouchDB-Roles", AuthSettings.PROXY_ROLE).header("X-Auth-CouchDB-Token", token);
  }

  private Session tallied(Session session, TenantsTally.Checks checks, Set<Integer> refusals, String request,
      String sent) {
    // Each outcome counted here once; the session's failure is not carried to the user's next request.
    if (!session.contains(STATUS)) {
      tally.failed(request + ": no reply");
      return session.markAsSucceeded();
    }
    if (wallRefusal(session).isPresent()) {
      return session.markAsSucceeded(); // neither let in nor refused: the database could not be opened
    }
    checks.tried().increment();
    int status = session.getInt(STATUS);
    if (refusals.contains(status)) {
      checks.refused().increment();
      return session.markAsSucceeded();
    }
    List<String> expected = refusals.stream().sorted().map(String::valueOf).toList();
    tally.letIn("user " + tenant(session).name() + " was let in: " + request + ", " + sent + " answered " + status
        + " (expected " + String.join(", ", expected.subList(0, expected.size() - 1)) + " or "
        + expected.get(expected.size() - 1) + ")");
    return session.markAsSucceeded();
  }

  private static SecurityProbe probe(Session session) {
    return (SecurityProbe) session.get(PROBE);
  }
}
