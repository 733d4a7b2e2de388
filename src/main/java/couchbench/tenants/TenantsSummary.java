package couchbench.tenants;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.tenants.TenantsPlan.Auth;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * After Tenants: the latency of the login and of the requests, cold (each user's first) and warm, of each auth method
 * of the run, in one table; the security probes and each method's wrong logins tried and refused, and every one let
 * in, which fails the run; the databases CouchDB kept open second by second against max_dbs_open, and the requests
 * refused for want of one, counted apart from other failures (any other fails the run); each node's Erlang processes and memory over the run.
 */
public final class TenantsSummary implements Summary<TenantsFigures> {

  @Override
  public Class<TenantsFigures> figuresType() {
    return TenantsFigures.class;
  }

  /** Tenants runs on one injector ({@link TenantsPlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public TenantsFigures merge(List<TenantsFigures> injectors) {
    return Summary.ofOneInjector("Tenants", injectors);
  }

  @Override
  public Optional<String> failure(TenantsFigures figures) {
    List<String> failures = new ArrayList<>();
    if (figures.letInCount() > 0) {
      failures.add(String.format(Locale.ROOT, "%,d request%s that must be refused %s let in: %s",
          figures.letInCount(), figures.letInCount() == 1 ? "" : "s", figures.letInCount() == 1 ? "was" : "were",
          String.join("; ", figures.letIn())));
    }
    if (figures.failedCount() > 0) {
      failures.add(String.format(Locale.ROOT, "%,d request%s failed (besides refusals for want of an open database):"
          + " %s", figures.failedCount(), figures.failedCount() == 1 ? "" : "s", String.join("; ", figures.failed())));
    }
    return failures.isEmpty() ? Optional.empty() : Optional.of(String.join("; and ", failures));
  }

  @Override
  public SummaryPage page(Results results, TenantsFigures figures) {
    Table latency = Table.of("request", "when", "count", "OK", "KO", "p50 ms", "p90 ms", "p99 ms", "max ms");
    List<String> methods = new ArrayList<>();
    for (TenantsFigures.Method method : figures.auths()) {
      methods.add(method.auth());
      latency = rows(latency, results, Auth.valueOf(method.auth().toUpperCase(Locale.ROOT)));
    }
    Table security = Table.of("security check", "tried", "refused", "let in");
    for (TenantsFigures.ProbeTally probe : figures.probes()) {
      security = security.row(probe.request(), probe.tried(), probe.refused(), probe.tried() - probe.refused());
    }
    for (TenantsFigures.ProbeTally wrong : figures.wrongLogins()) {
      security = security.row(wrong.request(), wrong.tried(), wrong.refused(), wrong.tried() - wrong.refused());
    }
    SummaryPage page = SummaryPage.titled("Tenants: a login and a database per user")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + ".")
        .line(String.format(Locale.ROOT, "Users: %,d, created in _users before the load, their passwords hashed with"
            + " PBKDF2 at %s iterations; they and their databases (the load says which) %s after the run.",
            figures.tenants(), figures.iterations(), figures.kept() ? "kept (-Dkeep=true)" : "deleted"))
        .line("Auth (-Dauth, user k by the k-th method in turn): " + String.join(", ", figures.auths().stream()
            .map(method -> String.format(Locale.ROOT, "%s %,d users", method.auth(), method.users())).toList()) + ".")
        .line(String.format(Locale.ROOT, "Security: %,d probes tried, %,d refused; %,d wrong logins tried (%s), %,d"
            + " refused; %,d let in.", figures.probesTried(), figures.probesRefused(), figures.wrongLoginsTried(),
            String.join(", ", figures.wrongLogins().stream().map(TenantsFigures.ProbeTally::request).toList()),
            figures.wrongLoginsRefused(), figures.letInCount()));
    if (figures.cookieRenewals() >= 0) {
      page = page.line(String.format(Locale.ROOT, "Cookies: %,d renewed AuthSession cookies sent by CouchDB with the"
          + " users' requests of their own (once a tenth of [chttpd_auth] timeout has passed), each taken by its user's cookie jar.",
          figures.cookieRenewals()));
    }
    TenantsFigures.Active active = figures.active();
    if (!active.distribution().equals(TenantsPlan.Active.ALL.word())) {
      page = page.line(String.format(Locale.ROOT, "Active users (-Dactive=%s): %,d sessions, each a user drawn %s; %,d"
          + " users of %,d had one or more, the busiest %,d sessions, the busiest tenth %,d.", active.distribution(),
          active.sessions(), active.distribution(), active.users(), figures.tenants(), active.busiest(),
          active.busiestTenth()));
    }
    TenantsFigures.Wall wall = figures.wall();
    page = page.line(String.format(Locale.ROOT, "Open databases: max_dbs_open %s%s; %,d requests refused for want of"
        + " an open database (500: %s), counted apart from failures.", wall.maxDbsOpen(), wall.openAtStart() < 0 ? ""
        : String.format(Locale.ROOT, ", %,d databases (shards) open when it was set", wall.openAtStart()),
        wall.refusedCount(), String.join(", ", wall.refused().entrySet().stream().map(reason -> reason.getKey() + " "
            + String.format(Locale.ROOT, "%,d", reason.getValue())).toList())));
    page = failure(figures).map(page::warning).orElse(page);
    page = page.table("login and requests, " + TenantsPlan.inWords(methods) + " auth: cold and warm", latency)
        .table("security checks: each must be refused", security);
    page = wall.open().isEmpty() ? page : page.chart("open databases and files against max_dbs_open",
        openChart(wall)).chart("requests refused for want of an open database, a second", refusedChart(wall));
    return erlang(page, figures.erlang());
  }

  /**
   * @param databases -Ddatabases, e.g. "peruser"
   * @return the captions' words for it, e.g. "-Ddatabases=peruser, couch_peruser on: CouchDB made each user's database"
   */
  static String databasesInWords(String databases) {
    return "-Ddatabases=" + databases + switch (TenantsPlan.Databases.valueOf(databases.toUpperCase(Locale.ROOT))) {
      case OWN -> ": each user's database made by couchbench";
      case PERUSER -> ", couch_peruser on: CouchDB made each user's database";
      case SHARED -> ": one database for every user";
    };
  }

  // Each node's Erlang processes and memory before the users, at the load's start, at their peak and at its end, and
  // charted over the load; captioned with -Ddatabases, so that a peruser run's page reads against an own one's.
  private static SummaryPage erlang(SummaryPage page, TenantsFigures.Erlang erlang) {
    if (erlang.processes().isEmpty() && erlang.memory().isEmpty()) {
      return page.line("CouchDB's Erlang processes and memory: not sampled during the load (-DsampleServers=false or"
          + " -DsampleServers.systemEvery=0).");
    }
    String databases = databasesInWords(erlang.databases());
    Table table = Table.of("figure", "before the users", "load start", "peak", "load end");
    for (TenantsFigures.Gauge gauge : erlang.processes()) {
      table = table.row(gauge.series().name(), count(gauge.beforeUsers()), count(gauge.start()), count(gauge.peak()),
          count(gauge.end()));
    }
    for (TenantsFigures.Gauge gauge : erlang.memory()) {
      table = table.row(gauge.series().name() + " (MB)", gauge.beforeUsers() < 0 ? null : gauge.beforeUsers(),
          gauge.start(), gauge.peak(), gauge.end());
    }
    page = page.table("CouchDB's Erlang processes and memory, " + databases, table);
    if (!erlang.processes().isEmpty()) {
      page = page.chart("CouchDB's Erlang processes over the load, " + databases, gaugeChart("CouchDB's Erlang"
          + " processes over the load, " + databases, "processes (count)", erlang.processes()));
    }
    return erlang.memory().isEmpty() ? page : page.chart("CouchDB's Erlang memory over the load, " + databases,
        gaugeChart("CouchDB's Erlang memory over the load, " + databases, "memory (MB)", erlang.memory()));
  }

  private static LineChart gaugeChart(String title, String axis, List<TenantsFigures.Gauge> gauges) {
    LineChart chart = LineChart.titled(title).axes("seconds into the load", axis);
    for (TenantsFigures.Gauge gauge : gauges) {
      chart = chart.series(gauge.series().name(), gauge.series().seconds(), gauge.series().values());
    }
    return chart;
  }

  // A count read as a double; empty when not read.
  private static Long count(double value) {
    return value < 0 ? null : Math.round(value);
  }

  // Each node's open databases (shards) and files, second by second, with the limit set for the run as a line.
  private static LineChart openChart(TenantsFigures.Wall wall) {
    LineChart chart = LineChart.titled("open databases and files against max_dbs_open")
        .axes("seconds into the load", "open (count)");
    for (TenantsFigures.Series series : wall.open()) {
      chart = chart.series(series.name(), series.seconds(), series.values());
    }
    List<Long> seconds = wall.open().get(0).seconds();
    if (wall.limit() > 0 && !seconds.isEmpty()) {
      chart = chart.series("max_dbs_open (-DmaxDbsOpen)", List.of(seconds.get(0), seconds.get(seconds.size() - 1)),
          Collections.nCopies(2, wall.limit()));
    }
    return chart;
  }

  private static LineChart refusedChart(TenantsFigures.Wall wall) {
    LineChart chart = LineChart.titled("requests refused for want of an open database, a second")
        .axes("seconds into the load", "refused (/s)");
    for (TenantsFigures.Series series : wall.refusedBySecond()) {
      chart = chart.series(series.name(), series.seconds(), series.values());
    }
    return chart;
  }

  // One method's rows: its login (cookie), its first request (cold), its reads and writes (warm), its wrong logins.
  private static Table rows(Table table, Results results, Auth auth) {
    Table rows = row(table, results, TenantsLoad.named(auth, TenantsLoad.LOGIN), "once per user: POST /_session");
    rows = row(rows, results, TenantsLoad.named(auth, TenantsLoad.FRESH_COOKIE), "once per user, after its login:"
        + " its own database with exactly the login's cookie, let in while fresh (-DcookieTimeout)");
    rows = row(rows, results, TenantsLoad.named(auth, TenantsLoad.FIRST_REQUEST), switch (auth) {
      case JWT -> "cold: the user's first request with its token (a JWT has no login request)";
      case PROXY -> "cold: the user's first request with the proxy's headers (no login request)";
      case BASIC, COOKIE -> "cold: the user's first request with its login";
    });
    rows = row(rows, results, TenantsLoad.named(auth, TenantsLoad.READ), "warm: a read of its own document");
    rows = row(rows, results, TenantsLoad.named(auth, TenantsLoad.WRITE), "warm: a write to its own database");
    for (WrongLogin kind : WrongLogin.of(auth)) {
      rows = row(rows, results, TenantsLoad.named(auth, kind.requestName()), "once per user, before its login:"
          + " refused");
    }
    return row(rows, results, TenantsLoad.named(auth, WrongLogin.EXPIRED_COOKIE.requestName()), "once per user, at"
        + " its end, its login's cookie past -DcookieTimeout: refused");
  }

  private static Table row(Table table, Results results, String name, String when) {
    return results.requests().stream().filter(entry -> entry.kind().equals("request") && entry.name().equals(name))
        .findFirst().map(entry -> table.row(name, when, entry.count(), entry.ok(), entry.ko(),
            millis(entry.latency().p50()), millis(entry.latency().p90()), millis(entry.latency().p99()),
            millis(entry.latency().max())))
        .orElse(table);
  }

  // results.json's latencies are in microseconds; Gatling timed these in whole milliseconds.
  private static long millis(double micros) {
    return Math.round(micros / 1e3);
  }
}
