package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.OneLineException;
import couchbench.startup.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TenantsPlanTest {

  @Test
  void shouldRunTenUsersWithBasicAuthAndTheServersIterationsByDefault() {
    TenantsPlan plan = plan(Map.of());

    assertEquals(10, plan.tenants());
    assertEquals(List.of(TenantsPlan.Auth.BASIC), plan.auths());
    assertEquals(OptionalInt.empty(), plan.iterations());
    assertEquals(OptionalInt.empty(), plan.maxDbsOpen());
    assertEquals(0.8, plan.read());
    assertEquals(0.2, plan.write());
    assertEquals(20, plan.docs());
    assertEquals(10, plan.probeEvery());
    assertEquals(Duration.ofSeconds(30), plan.duration());
    assertEquals("couchbench_tenants", plan.prefix());
    assertFalse(plan.keep());
    assertEquals("10 users, basic auth, each its own database of 20 documents, read 0.8, write 0.2, a security probe"
        + " every 10th request; 30 s", plan.describe());
  }

  @Test
  void shouldTakeEachValue() {
    TenantsPlan plan = plan(Map.ofEntries(Map.entry("tenants", "100"), Map.entry("auth", "cookie"),
        Map.entry("databases", "own"), Map.entry("iterations", "1000"), Map.entry("maxDbsOpen", "40"),
        Map.entry("read", "0.5"), Map.entry("docs", "5"), Map.entry("probeEvery", "3"), Map.entry("duration", "4"),
        Map.entry("database", "tenants_it"), Map.entry("keep", "true")));

    assertEquals(100, plan.tenants());
    assertEquals(List.of(TenantsPlan.Auth.COOKIE), plan.auths());
    assertEquals(OptionalInt.of(1000), plan.iterations());
    assertEquals(OptionalInt.of(40), plan.maxDbsOpen());
    assertEquals(0.5, plan.write());
    assertTrue(plan.keep());
    assertEquals("100 users, cookie auth, each its own database of 5 documents, read 0.5, write 0.5, a security probe"
        + " every 3rd request; max_dbs_open 40; 4 s", plan.describe());
    assertTrue(plan(Map.of("probeEvery", "1")).describe().contains("every 1st request"));
    assertTrue(plan(Map.of("probeEvery", "12")).describe().contains("every 12th request"));
  }

  @Test
  void shouldDrawTheSessionsUsersWithActiveUniformOrZipfian() {
    TenantsPlan plan = plan(Map.of("tenants", "1000", "active", "zipfian", "sessions", "200"));

    assertEquals(TenantsPlan.Active.ZIPFIAN, plan.active());
    assertEquals(200, plan.sessions());
    assertTrue(plan.describe().startsWith("1,000 users, 200 sessions of users drawn zipfian, basic auth"),
        plan.describe());
    assertEquals(1000, plan(Map.of("tenants", "1000", "active", "uniform")).sessions(), "a session a user by default");
    assertEquals(TenantsPlan.Active.ALL, plan(Map.of()).active());
    assertEquals(10, plan(Map.of()).sessions());
  }

  @Test
  void shouldShareOneDatabaseCheckedByAValidateDocUpdateWithDatabasesShared() {
    TenantsPlan shared = plan(Map.of("databases", "shared"));

    assertEquals(TenantsPlan.Databases.SHARED, shared.databases());
    assertTrue(shared.validate(), "a shared database's writes are always checked");
    assertEquals("10 users, basic auth, one shared database, 20 documents each, every write through a"
        + " validate_doc_update, read 0.8, write 0.2, a security probe every 10th request; 30 s", shared.describe());
    assertEquals(List.of(SecurityProbe.WRITE_OVER, SecurityProbe.NEVER_GIVEN,
        SecurityProbe.OTHER_USER_DOC), SecurityProbe.of(shared.databases()));
    TenantsPlan own = plan(Map.of("validate", "true"));
    assertEquals(TenantsPlan.Databases.OWN, own.databases());
    assertTrue(own.validate());
    assertFalse(plan(Map.of()).validate(), "no validate_doc_update in the users' own databases by default");
    assertTrue(own.describe().contains("each its own database of 20 documents, every write through a"
        + " validate_doc_update, read 0.8"), own.describe());
  }

  @Test
  void shouldLeaveTheUsersDatabasesToCouchPeruserWithDatabasesPeruser() {
    TenantsPlan plan = plan(Map.of("databases", "peruser"));

    assertEquals(TenantsPlan.Databases.PERUSER, plan.databases());
    assertFalse(plan.validate());
    assertTrue(plan.describe().contains("each its database made by couch_peruser, of 20 documents, read 0.8"),
        plan.describe());
    assertEquals(SecurityProbe.of(TenantsPlan.Databases.OWN), SecurityProbe.of(plan.databases()));
  }

  @Test
  void shouldSetTheCookiesTimeoutForTheRunWithCookieAuth() {
    TenantsPlan plan = plan(Map.of("auth", "cookie", "cookieTimeout", "3", "duration", "8"));

    assertEquals(OptionalInt.of(3), plan.cookieTimeout());
    assertTrue(plan.describe().endsWith("; cookies lasting 3 s; 8 s"), plan.describe());
    assertEquals(OptionalInt.empty(), plan(Map.of("auth", "cookie")).cookieTimeout());
  }

  @Test
  void shouldTakeJwtAndProxyAuth() {
    assertEquals(List.of(TenantsPlan.Auth.JWT), plan(Map.of("auth", "jwt")).auths());
    assertEquals(List.of(TenantsPlan.Auth.PROXY), plan(Map.of("auth", " proxy ")).auths());
    assertTrue(plan(Map.of("auth", "jwt")).describe().contains("jwt auth"));
  }

  @Test
  void shouldDealAMixOfMethodsToTheUsersInTurnByTheirNumber() {
    TenantsPlan plan = plan(Map.of("auth", "basic, cookie,jwt,proxy", "tenants", "10"));

    assertEquals(List.of(TenantsPlan.Auth.BASIC, TenantsPlan.Auth.COOKIE, TenantsPlan.Auth.JWT,
        TenantsPlan.Auth.PROXY), plan.auths());
    assertEquals(List.of(TenantsPlan.Auth.BASIC, TenantsPlan.Auth.COOKIE, TenantsPlan.Auth.JWT,
        TenantsPlan.Auth.PROXY, TenantsPlan.Auth.BASIC, TenantsPlan.Auth.COOKIE, TenantsPlan.Auth.JWT,
        TenantsPlan.Auth.PROXY, TenantsPlan.Auth.BASIC, TenantsPlan.Auth.COOKIE),
        IntStream.range(0, 10).mapToObj(plan::auth).toList());
    assertEquals(List.of(3, 3, 2, 2), plan.auths().stream().map(plan::usersOf).toList());
    assertTrue(plan.describe().startsWith("10 users, basic, cookie, jwt and proxy (dealt to the users in turn) auth,"),
        plan.describe());
    TenantsPlan two = plan(Map.of("auth", "jwt,basic", "tenants", "2"));
    assertEquals(List.of(TenantsPlan.Auth.JWT, TenantsPlan.Auth.BASIC), two.auths(), "in -Dauth's order");
    assertEquals(List.of(1, 1), two.auths().stream().map(two::usersOf).toList());
    assertEquals(OptionalInt.of(3), plan(Map.of("auth", "basic,cookie", "cookieTimeout", "3", "duration", "8"))
        .cookieTimeout(), "cookie among the methods");
  }

  @Test
  void shouldRefuseEachBadInputInOneLineNamingItAndTheFix() {
    assertRefused(Map.of("tenants", "1"), "-Dtenants=1 is out of range: give -Dtenants from 2 (each user probes the"
        + " next one's database) to 10,000");
    assertRefused(Map.of("tenants", "10001"), "-Dtenants=10001 is out of range");
    assertRefused(Map.of("tenants", "0"), "-Dtenants=0 is out of range");
    assertRefused(Map.of("tenants", "many"), "-Dtenants=many is not a whole number");
    assertRefused(Map.of("auth", "digest"), "-Dauth=digest is not a way Tenants' users authenticate: give"
        + " -Dauth=basic");
    assertRefused(Map.of("auth", "basic,digest"), "-Dauth=basic,digest: digest is not a way Tenants' users"
        + " authenticate: give -Dauth=basic (name and password on every request, the default), cookie (POST /_session,"
        + " then its AuthSession cookie), jwt (an HS256 token on every request) or proxy (X-Auth-CouchDB-UserName and"
        + " -Token), or a comma list of them, e.g. -Dauth=basic,jwt");
    assertRefused(Map.of("auth", "basic,jwt,basic"), "-Dauth=basic,jwt,basic names basic twice: give each method once,"
        + " e.g. -Dauth=basic,cookie,jwt,proxy");
    assertRefused(Map.of("auth", "basic,,jwt"), "-Dauth=basic,,jwt has an empty method: give one of basic, cookie, jwt"
        + " and proxy, or a comma list of them without empty items, e.g. -Dauth=basic,cookie,jwt,proxy");
    assertRefused(Map.of("auth", "basic,"), "-Dauth=basic, has an empty method");
    assertRefused(Map.of("auth", ","), "-Dauth=, has an empty method");
    assertRefused(Map.of("auth", "basic,cookie,jwt", "tenants", "2"), "-Dauth=basic,cookie,jwt names 3 methods for"
        + " -Dtenants=2: each method needs a user of its own; give -Dtenants of at least 3 or fewer methods");
    assertRefused(Map.of("databases", "mine"), "-Ddatabases=mine is not a way Tenants gives users databases: give"
        + " -Ddatabases=own");
    assertRefused(Map.of("databases", "shared", "validate", "false"), "-Dvalidate=false with -Ddatabases=shared:"
        + " nothing would keep a user from writing over another user's documents in the shared database; leave"
        + " -Dvalidate out (true with shared) or give -Ddatabases=own");
    assertRefused(Map.of("validate", "maybe"), "-Dvalidate=maybe");
    assertRefused(Map.of("cookieTimeout", "5"), "-DcookieTimeout is for cookie auth (how long an AuthSession cookie"
        + " lasts): leave it out or put cookie among -Dauth's methods (-Dauth=cookie, or e.g. -Dauth=basic,cookie)");
    assertRefused(Map.of("auth", "basic,jwt", "cookieTimeout", "5"), "-DcookieTimeout is for cookie auth");
    assertRefused(Map.of("auth", "cookie", "cookieTimeout", "30"), "-DcookieTimeout=30 is not below -Dduration=30:"
        + " each user's login cookie must have expired when it is tried again at the end; give a -DcookieTimeout"
        + " below -Dduration");
    assertRefused(Map.of("auth", "cookie", "cookieTimeout", "0"), "-DcookieTimeout=0 is too small (expected >= 1)");
    assertRefused(Map.of("iterations", "0"), "-Diterations=0 is too small (expected >= 1)");
    assertRefused(Map.of("active", "pareto"), "-Dactive=pareto is not a way Tenants draws its active users: give"
        + " -Dactive=all");
    assertRefused(Map.of("sessions", "20"), "-Dsessions=20 is for -Dactive=uniform or zipfian");
    assertRefused(Map.of("active", "zipfian", "sessions", "0"), "-Dsessions=0 is too small (expected >= 1)");
    assertRefused(Map.of("maxDbsOpen", "0"), "-DmaxDbsOpen=0 is too small (expected >= 1)");
    assertRefused(Map.of("maxDbsOpen", "ten"), "-DmaxDbsOpen=ten is not a whole number");
    assertRefused(Map.of("read", "1.5"), "-Dread=1.5 is not a proportion: give a value from 0 to 1");
    assertRefused(Map.of("database", "Tenants"), "-Ddatabase=Tenants is not a valid CouchDB database name");
    assertRefused(Map.of("injector", "1/2"), "-Dinjector: Tenants runs on one injector");
  }

  private static void assertRefused(Map<String, String> properties, String part) {
    OneLineException refused = assertThrows(OneLineException.class, () -> plan(properties), "refused: " + properties);
    assertTrue(refused.getMessage().contains(part), refused.getMessage());
    assertFalse(refused.getMessage().contains("\n"), refused.getMessage());
  }

  private static TenantsPlan plan(Map<String, String> properties) {
    return TenantsPlan.from(Settings.of(properties, Map.of()));
  }
}
