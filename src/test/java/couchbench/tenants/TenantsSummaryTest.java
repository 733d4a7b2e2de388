package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.results.Results;
import couchbench.results.SummaryInput;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TenantsSummaryTest {

  private static final List<TenantsFigures.ProbeTally> PROBES = List.of(
      new TenantsFigures.ProbeTally(SecurityProbe.OTHER_DATABASE.requestName(), 30, 30),
      new TenantsFigures.ProbeTally(SecurityProbe.NEVER_GIVEN.requestName(), 20, 20),
      new TenantsFigures.ProbeTally(SecurityProbe.OTHER_USER_DOC.requestName(), 20, 20));
  private static final TenantsFigures.Active ACTIVE = new TenantsFigures.Active("all", 10, 10, 1, 1);
  private static final TenantsFigures.Erlang NOT_SAMPLED = new TenantsFigures.Erlang("own", List.of(), List.of());

  @Test
  void shouldShowLoginAndRequestsColdAndWarmAndTheSecurityChecksRefused() {
    TenantsFigures figures = figures(List.of(), 0);
    String page = SummaryInput.page(new TenantsSummary(), results(), figures).toHtml();

    assertEquals(Optional.empty(), new TenantsSummary().failure(figures));
    assertTrue(page.contains("Security: 70 probes tried, 70 refused; 10 wrong logins tried (cookie wrong password),"
        + " 10 refused; 0 let in."), page);
    assertTrue(page.contains("Auth (-Dauth, user k by the k-th method in turn): cookie 10 users."), page);
    assertTrue(page.contains("hashed with PBKDF2 at 1000 (-Diterations, for the run; the server&#39;s 600000 restored"
        + " after) iterations"), page);
    for (String request : List.of("cookie login", "cookie first request", "cookie read", "cookie write",
        "cookie wrong password", SecurityProbe.NEVER_GIVEN.requestName())) {
      assertTrue(page.contains(request), request + " on the page: " + page);
    }
    assertTrue(page.contains("cold: the user&#39;s first request with its login"), page);
  }

  @Test
  void shouldShowAJwtRunsFirstRequestWithoutALoginAndItsTwoWrongLoginsApart() {
    TenantsFigures figures = new TenantsFigures("10 users, jwt auth", methods("jwt"), 10, "the server's 600000", PROBES,
        List.of(new TenantsFigures.ProbeTally("jwt " + WrongLogin.WRONG_KEY.requestName(), 10, 10),
            new TenantsFigures.ProbeTally("jwt " + WrongLogin.EXPIRED_TOKEN.requestName(), 10, 9)), List.of(), 0, ACTIVE, wall(Map.of()), List.of(), 0,
        false, -1, NOT_SAMPLED);
    Results results = SummaryInput.results("Tenants", null, List.of(
        SummaryInput.entry(TenantsLoad.named(TenantsPlan.Auth.JWT, TenantsLoad.FIRST_REQUEST), 10, Map.of()),
        SummaryInput.entry(TenantsLoad.named(TenantsPlan.Auth.JWT, WrongLogin.EXPIRED_TOKEN.requestName()), 10,
            Map.of())));

    String page = SummaryInput.page(new TenantsSummary(), results, figures).toHtml();

    assertTrue(page.contains("a JWT has no login request"), page);
    assertTrue(page.contains("20 wrong logins tried (jwt token signed with a wrong key, jwt expired token), 19"
        + " refused"), page);
    assertTrue(page.contains("jwt expired token"), page);
    assertTrue(page.contains("login and requests, jwt auth: cold and warm"), page);
  }

  @Test
  void shouldShowEveryMethodOfAMixInOneTableWithItsUsers() {
    List<TenantsFigures.Method> mix = List.of(new TenantsFigures.Method("basic", 3, 3),
        new TenantsFigures.Method("cookie", 3, 3), new TenantsFigures.Method("jwt", 2, 2),
        new TenantsFigures.Method("proxy", 2, 2));
    TenantsFigures figures = new TenantsFigures("10 users, basic, cookie, jwt and proxy (dealt to the users in turn)"
        + " auth", mix, 10, "the server's 600000", PROBES, List.of(), List.of(), 0, ACTIVE, wall(Map.of()), List.of(),
        0, false, 0, NOT_SAMPLED);
    List<String> requests = List.of("basic first request", "basic read", "basic wrong password", "cookie login",
        "cookie login cookie, fresh", "cookie read", "cookie expired cookie", "jwt first request",
        "jwt expired token", "proxy write", "proxy wrong proxy token");
    Results results = SummaryInput.results("Tenants", null, requests.stream()
        .map(request -> SummaryInput.entry(request, 3, Map.of())).toList());

    String page = SummaryInput.page(new TenantsSummary(), results, figures).toHtml();

    assertTrue(page.contains("login and requests, basic, cookie, jwt and proxy auth: cold and warm"), page);
    assertTrue(page.contains("Auth (-Dauth, user k by the k-th method in turn): basic 3 users, cookie 3 users, jwt 2"
        + " users, proxy 2 users."), page);
    int last = -1;
    for (String request : requests) {
      int at = page.indexOf("<td>" + request + "</td>");
      assertTrue(at > last, request + " in the table, each method's rows together: " + page);
      last = at;
    }
    assertTrue(page.contains("let in while fresh"), page);
  }

  @Test
  void shouldFailTheRunNamingTheUserTheRequestAndTheStatusOfEachLetIn() {
    String letIn = "user couchbench_tenants_00000 was let in: probe another user's database, GET"
        + " /couchbench_tenants_00001 answered 200 (expected 401, 403 or 404)";
    TenantsFigures figures = figures(List.of(letIn), 1);

    assertEquals(Optional.of("1 request that must be refused was let in: " + letIn),
        new TenantsSummary().failure(figures));
    assertEquals(Optional.of("3 requests that must be refused were let in: " + letIn),
        new TenantsSummary().failure(figures(List.of(letIn), 3)));
    assertTrue(SummaryInput.page(new TenantsSummary(), results(), figures).toHtml()
        .contains("GET /couchbench_tenants_00001 answered 200"));
  }

  @Test
  void shouldCountRefusalsForWantOfAnOpenDatabaseApartAndChartOpenDatabasesAgainstTheLimit() {
    Map<String, Long> refused = new LinkedHashMap<>();
    refused.put(WallRefusal.ALL_DBS_ACTIVE.reason(), 6L);
    refused.put(WallRefusal.NO_SHARDS_OPENED.reason(), 11L);
    TenantsFigures.Wall wall = new TenantsFigures.Wall("10 (-DmaxDbsOpen, for the run; the server's built-in default"
        + " (500 in CouchDB 3.5) restored after)", 10, 4, refused, List.of(new TenantsFigures.Series("couchdb open"
        + " databases", List.of(0L, 1L, 2L), List.of(4.0, 10.0, 10.0))), List.of(new TenantsFigures.Series(
        "all_dbs_active", List.of(0L, 1L, 2L), List.of(0.0, 6.0, 0.0))));
    TenantsFigures figures = new TenantsFigures("10 users, basic auth", methods("basic"), 10, "the server's 600000", PROBES,
        List.of(), List.of(), 0, ACTIVE, wall, List.of(), 0, false, -1, NOT_SAMPLED);

    String page = SummaryInput.page(new TenantsSummary(), results(), figures).toHtml();

    assertEquals(Optional.empty(), new TenantsSummary().failure(figures), "refusals for want of a database do not fail"
        + " the run");
    assertTrue(page.contains("Open databases: max_dbs_open 10 (-DmaxDbsOpen, for the run; the server&#39;s built-in"
        + " default (500 in CouchDB 3.5) restored after), 4 databases (shards) open when it was set; 17 requests"
        + " refused for want of an open database (500: all_dbs_active 6, No DB shards could be opened. 11), counted"
        + " apart from failures."), page);
    assertTrue(page.contains("open databases and files against max_dbs_open"), page);
    assertTrue(page.contains("requests refused for want of an open database, a second"), page);
    assertEquals(figures, SummaryInput.readBack(TenantsFigures.class, figures));
  }

  @Test
  void shouldChartEachNodesErlangProcessesAndMemoryOverTheLoadNamingCouchPeruserAndGiveThemBeforeStartPeakAndEnd() {
    TenantsFigures.Erlang erlang = new TenantsFigures.Erlang("peruser", List.of(
        new TenantsFigures.Gauge(new TenantsFigures.Series("couchdb erlang processes", List.of(0L, 1L, 2L),
            List.of(900.0, 1250.0, 1100.0)), 480, 900, 1250, 1100)), List.of(
        new TenantsFigures.Gauge(new TenantsFigures.Series("couchdb erlang memory", List.of(0L, 1L, 2L),
            List.of(61.25, 70.5, 66.0)), 52.125, 61.25, 70.5, 66)));
    TenantsFigures figures = new TenantsFigures("10 users, basic auth", methods("basic"), 10, "the server's 600000",
        PROBES, List.of(), List.of(), 0, ACTIVE, wall(Map.of()), List.of(), 0, false, -1, erlang);

    String page = SummaryInput.page(new TenantsSummary(), results(), figures).toHtml();

    String databases = "-Ddatabases=peruser, couch_peruser on: CouchDB made each user&#39;s database";
    assertTrue(page.contains("CouchDB&#39;s Erlang processes and memory, " + databases), page);
    assertTrue(page.contains("CouchDB&#39;s Erlang processes over the load, " + databases), page);
    assertTrue(page.contains("CouchDB&#39;s Erlang memory over the load, " + databases), page);
    for (String row : List.of(row("couchdb erlang processes", "480", "900", "1250", "1100"),
        row("couchdb erlang memory (MB)", "52.1", "61.3", "70.5", "66"))) {
      assertTrue(page.contains(row), row + " on the page: " + page);
    }
    assertEquals(figures, SummaryInput.readBack(TenantsFigures.class, figures));
    String unsampled = SummaryInput.page(new TenantsSummary(), results(), figures(List.of(), 0)).toHtml();
    assertTrue(unsampled.contains("CouchDB&#39;s Erlang processes and memory: not sampled during the load"), unsampled);
    assertEquals("-Ddatabases=own: each user's database made by couchbench", TenantsSummary.databasesInWords("own"));
    assertEquals("-Ddatabases=shared: one database for every user", TenantsSummary.databasesInWords("shared"));
  }

  @Test
  void shouldFailTheRunNamingEachOtherFailedRequest() {
    TenantsFigures figures = new TenantsFigures("10 users, basic auth", methods("basic"), 10, "the server's 600000", PROBES,
        List.of(), List.of(), 0, ACTIVE, wall(Map.of("all_dbs_active", 3L)), List.of("basic read: answered 500",
        "basic write: no reply"), 2, false, -1, NOT_SAMPLED);

    assertEquals(Optional.of("2 requests failed (besides refusals for want of an open database): basic read:"
        + " answered 500; basic write: no reply"), new TenantsSummary().failure(figures));
  }

  @Test
  void shouldKeepItsFiguresThroughResultsJson() {
    TenantsFigures figures = figures(List.of("a"), 1);

    assertEquals(figures, SummaryInput.readBack(TenantsFigures.class, figures));
  }

  private static TenantsFigures figures(List<String> letIn, long letInCount) {
    return new TenantsFigures("10 users, cookie auth", methods("cookie"), 10, "1000 (-Diterations, for the run; the server's"
        + " 600000 restored after)", PROBES, List.of(new TenantsFigures.ProbeTally("cookie wrong password", 10, 10)), letIn,
        letInCount, ACTIVE, wall(Map.of("all_dbs_active", 0L)), List.of(), 0, false, -1, NOT_SAMPLED);
  }

  // A row of the page's table: its name, then its numbers.
  private static String row(String name, String... numbers) {
    StringBuilder row = new StringBuilder("<tr><td>" + name + "</td>");
    for (String number : numbers) {
      row.append("<td class=\"num\">").append(number).append("</td>");
    }
    return row.append("</tr>").toString();
  }

  private static List<TenantsFigures.Method> methods(String auth) {
    return List.of(new TenantsFigures.Method(auth, 10, 10));
  }

  private static TenantsFigures.Wall wall(Map<String, Long> refused) {
    return new TenantsFigures.Wall("the server's built-in default (500 in CouchDB 3.5)", 0, -1, refused, List.of(),
        List.of());
  }

  private static Results results() {
    return SummaryInput.results("Tenants", null, List.of("login", "first request", "read", "write").stream()
        .map(request -> SummaryInput.entry(TenantsLoad.named(TenantsPlan.Auth.COOKIE, request), 10, Map.of()))
        .toList());
  }
}
