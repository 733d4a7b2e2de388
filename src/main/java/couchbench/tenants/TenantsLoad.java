package couchbench.tenants;

import static io.gatling.javaapi.core.CoreDsl.doSwitch;
import static io.gatling.javaapi.core.CoreDsl.onCase;

import couchbench.couchdb.CouchDbClient;
import couchbench.distributions.Distribution;
import couchbench.results.LoadColumn;
import couchbench.results.RunOutput;
import couchbench.results.ServerSeries;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.tenants.TenantsPlan.Auth;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.commons.rng.simple.RandomSource;

/**
 * A login and a database per user, as an offline-first application has them: before the load, the server's settings
 * for the run ({@link TenantsSettings}) and the users created in {@code _users}, each given a database of its own, one
 * made by couch_peruser, or its documents in a shared one ({@link TenantAccounts}); then each virtual user is a session
 * of one of them, authenticating by its user's method of -Dauth (user k by the k-th in turn), down that method's
 * {@link AuthChains}. After the run the users and databases are deleted (unless -Dkeep=true) and the settings restored,
 * also when the run fails or is stopped.
 */
public final class TenantsLoad implements ExperimentLoad<TenantsFigures> {

  /** A cookie user's {@code POST /_session}. */
  public static final String LOGIN = "login";

  /** A user's first request with its login: CouchDB has not yet cached the password's hash (or the cookie's user). */
  public static final String FIRST_REQUEST = "first request";

  /** A read of one of the user's own documents, after its first request. */
  public static final String READ = "read";

  /** A write of a new document to the user's own database, after its first request. */
  public static final String WRITE = "write";

  /** With -DcookieTimeout, a cookie user's own database asked with exactly its login's cookie, after its login. */
  public static final String FRESH_COOKIE = "login cookie, fresh";

  private static final String OPEN_DATABASES = " open databases (count)";
  private static final String OPEN_FILES = " open files (count)";

  private final TenantsPlan plan;
  private final RunOutput run;
  private final TenantAccounts accounts;
  private final TenantsSettings settings;
  private final Optional<ActiveUsers> activeUsers;
  private final TenantsTally tally;
  private final Map<Auth, AuthChains> chains = new EnumMap<>(Auth.class);
  private final AtomicInteger users = new AtomicInteger();
  private final AtomicBoolean cleanedUp = new AtomicBoolean();
  private final ErlangOverRun erlang;

  /**
   * @param plan the run's plan
   * @param couchdb the CouchDB server, with a server admin's login
   * @param run the run's output, whose servers' figures second by second give the open databases and files
   */
  public TenantsLoad(TenantsPlan plan, CouchTarget couchdb, RunOutput run) {
    this.plan = plan;
    this.run = run;
    this.accounts = new TenantAccounts(plan, new CouchDbClient(couchdb));
    this.erlang = new ErlangOverRun(couchdb, plan.databases());
    AuthSettings authSettings = new AuthSettings(plan.auths());
    this.settings = new TenantsSettings(plan, couchdb, authSettings);
    this.tally = new TenantsTally(SecurityProbe.of(plan.databases()), plan.auths().stream()
        .flatMap(auth -> AuthChains.wrongLogins(auth, plan).stream()).toList(), plan.auths());
    plan.auths().forEach(auth -> chains.put(auth, new AuthChains(auth, plan, accounts, authSettings, tally)));
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
   * Takes and sets the run's settings ({@link TenantsSettings}: the login checked first), then creates the users and
   * their databases.
   *
   * @throws TenantsException for a login that is not an admin's, a server without _config, a refusal while creating
   */
  @Override
  public void prepare() {
    settings.apply(() -> AtExit.run(this::cleanUp));
    erlang.readBeforeUsers();
    accounts.create();
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
      tally.session(plan.auth(draw.user()));
      return AuthChains.startSession(session, accounts.tenants().get(draw.user()), draw.first());
    };
  }

  /** @return a user's start, by its method ({@link AuthChains#signIn}) */
  public ChainBuilder signIn() {
    return byMethod(AuthChains::signIn);
  }

  /** @return one steady request of a user, by its method ({@link AuthChains#nextRequest}) */
  public ChainBuilder nextRequest() {
    return byMethod(AuthChains::nextRequest);
  }

  /** @return a user's end, by its method ({@link AuthChains#signOff}) */
  public ChainBuilder signOff() {
    return byMethod(AuthChains::signOff);
  }

  // The session down the chain of its user's method: one case per method of the run (Gatling's doSwitch takes two
  // or more; a run of one method has its chain alone).
  private ChainBuilder byMethod(Function<AuthChains, ChainBuilder> chain) {
    if (chains.size() == 1) {
      return chain.apply(chains.values().iterator().next());
    }
    return doSwitch(session -> plan.auth(AuthChains.tenant(session).index())).on(chains.entrySet().stream()
        .map(method -> onCase(method.getKey()).then(chain.apply(method.getValue()))).toList());
  }

  @Override
  public Summary<TenantsFigures> summary() {
    return new TenantsSummary();
  }

  @Override
  public TenantsFigures figures() {
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
    TenantsFigures.Wall wall = new TenantsFigures.Wall(settings.maxDbsOpen(), plan.maxDbsOpen().orElse(0),
        settings.openAtStart(), tally.wallRefused(), open, refusedBySecond);
    List<TenantsFigures.Method> methods = plan.auths().stream().map(auth -> new TenantsFigures.Method(auth.word(),
        plan.usersOf(auth), tally.sessions(auth))).toList();
    return new TenantsFigures(plan.describe(), methods, plan.tenants(), settings.iterations(), tally.probes(),
        tally.wrongLogins(), tally.letIn(), tally.letInCount(), activeUsers.map(drawn -> drawn.drawn(
            plan.active().word())).orElseGet(() -> new TenantsFigures.Active(plan.active().word(), plan.tenants(),
                plan.tenants(), 1, Math.max(1, plan.tenants() / 10))), wall, tally.failed(), tally.failedCount(),
        plan.keep(), plan.auths().contains(Auth.COOKIE) ? tally.cookieRenewals() : -1,
        erlang.figures(servers, run.loadStartMillis()));
  }

  /** @return each {@link WallRefusal}'s count a second, a column of its own beside the run's requests' */
  @Override
  public List<LoadColumn> secondsColumns() {
    List<LoadColumn> columns = new ArrayList<>();
    refusalSeconds().forEach((kind, bySecond) -> columns.add(new LoadColumn(kind.column(), bySecond)));
    return columns;
  }

  private Map<WallRefusal, Map<Long, Double>> refusalSeconds() {
    return tally.refusalSeconds(Math.floorDiv(run.loadStartMillis(), 1000), run.loadSeconds().stream()
        .map(second -> second.epochSecond()).toList());
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
      settings.restore();
    }
  }
}
