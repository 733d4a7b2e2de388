package couchbench.tenants;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.tenants.TenantsPlan.Auth;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * After Tenants: the latency of the login and of the requests, cold (each user's first) and warm, by auth method; the
 * security probes and wrong passwords tried and refused, and every one let in, which fails the run.
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
    if (figures.letInCount() == 0) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT, "%,d request%s that must be refused %s let in: %s",
        figures.letInCount(), figures.letInCount() == 1 ? "" : "s", figures.letInCount() == 1 ? "was" : "were",
        String.join("; ", figures.letIn())));
  }

  @Override
  public SummaryPage page(Results results, TenantsFigures figures) {
    Auth auth = Auth.valueOf(figures.auth().toUpperCase(Locale.ROOT));
    Table latency = Table.of("request", "when", "count", "OK", "KO", "p50 ms", "p90 ms", "p99 ms", "max ms");
    latency = row(latency, results, TenantsLoad.named(auth, TenantsLoad.LOGIN), "once per user: POST /_session");
    latency = row(latency, results, TenantsLoad.named(auth, TenantsLoad.FIRST_REQUEST), switch (auth) {
      case JWT -> "cold: the user's first request with its token (a JWT has no login request)";
      case PROXY -> "cold: the user's first request with the proxy's headers (no login request)";
      case BASIC, COOKIE -> "cold: the user's first request with its login";
    });
    latency = row(latency, results, TenantsLoad.named(auth, TenantsLoad.READ), "warm: a read of its own document");
    latency = row(latency, results, TenantsLoad.named(auth, TenantsLoad.WRITE), "warm: a write to its own database");
    for (WrongLogin kind : WrongLogin.of(auth)) {
      latency = row(latency, results, kind.requestName(), "once per user, before its login: refused");
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
            + " PBKDF2 at %s iterations; each a database whose _security names it alone; %s after the run.",
            figures.tenants(), figures.iterations(), figures.kept() ? "kept (-Dkeep=true)" : "deleted"))
        .line(String.format(Locale.ROOT, "Security: %,d probes tried, %,d refused; %,d wrong logins tried (%s), %,d"
            + " refused; %,d let in.", figures.probesTried(), figures.probesRefused(), figures.wrongLoginsTried(),
            String.join(", ", WrongLogin.of(auth).stream().map(WrongLogin::requestName).toList()),
            figures.wrongLoginsRefused(), figures.letInCount()));
    if (figures.letInCount() > 0) {
      page = page.warning(failure(figures).orElseThrow());
    }
    return page.table("login and requests, " + auth.word() + " auth: cold and warm", latency)
        .table("security checks: each must be refused", security);
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
