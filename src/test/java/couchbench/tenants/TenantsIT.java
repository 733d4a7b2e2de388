package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import couchbench.targets.RealCouchDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tenants on a real Apache CouchDB 3.5 node: 1,000 users with basic auth (created in bulk, their passwords hashed at
 * -Diterations=1, one second of requests) and 50 with cookie auth (-Diterations=1000: CouchDB 3.5's 600,000 would take
 * the node about a minute of hashing per 100 users, far too slow for a test). Every cross-user request is refused and
 * counted; a database whose _security the test opens mid-run is let in and fails the run, named; after each run,
 * passed or failed, the users and databases are gone and the settings as they were (unset). A login that is not an
 * admin's, and pouchdb-server, are refused in one line before anything is made. The admin's password appears in no
 * output and no file of a run. With -Dauth=basic,cookie,jwt,proxy (20 users, 5 a method), every request of each
 * method's users with its login, token or headers is let in, each method's wrong logins (a wrong password, a token of
 * a wrong key, an expired one, a wrong proxy token) are refused and counted, the handlers, the key and the secret are
 * restored and the node answers with its own handlers again; neither a secret drawn for the run nor the node's own
 * appears in any output or file. With -DmaxDbsOpen=10 and 30 users, the requests refused for want
 * of an open database are counted apart and in seconds.csv, and the limit restored.
 */
class TenantsIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int USERS = 50;
  // The mix of methods, the shared, peruser and cookie-timeout runs: fewer users show the same.
  private static final int AUTH_USERS = 20;
  private static final int THOUSAND = 1_000;
  // The wall: 30 users' databases of 2 shards each, against 10 open at most.
  private static final int WALL_USERS = 30;
  private static final int WALL_LIMIT = 10;
  // _users and _replicator: system databases CouchDB opens without closing another.
  private static final int SYSTEM_DATABASES = 2;

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldFailTheRunNamingTheRequestLetInThroughADatabaseOpenedMidRunWithCookieAuth() throws Exception {
    String prefix = "tenants_cookie";
    String opened = prefix + "_00001";
    // Once the run has given user 00001 its database, the test opens it to every user: user 00000's probes of it are
    // then let in. The setting of the run is read there too.
    CompletableFuture<String> iterationsDuringRun = CompletableFuture.supplyAsync(() -> {
      awaitMembers(opened, opened);
      COUCHDB.node().request("PUT", "/" + opened + "/_security", "{}");
      return COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth/iterations", null).strip();
    });

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(load(prefix, "cookie")), TIMEOUT);

    assertEquals("\"1000\"", iterationsDuringRun.get(), "-Diterations set on the node for the run");
    assertEquals(2, run.exitCode(), run.why());
    assertTrue(run.output().contains("FAILED: "), run.output());
    String named = "user " + prefix + "_00000 was let in: probe another user's database, GET /" + opened
        + " answered 200 (expected 401, 403 or 404)";
    assertTrue(run.output().contains(named), run.output());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode figures = results.path("figures");
    assertEquals(USERS, ok(results, "cookie login"), "each user's POST /_session");
    assertEquals(USERS, ok(results, "cookie first request"), "each user's first request with its cookie");
    assertTrue(ok(results, "cookie read") > 0, results.path("requests").toString());
    assertTrue(figures.path("letInCount").asLong() > 0, figures.toString());
    assertEquals(figures.path("letInCount").asLong(), ko(results, "probe another user's database"),
        "each let in fails its request too");
    for (JsonNode probe : figures.path("probes")) {
      long letIn = probe.path("tried").asLong() - probe.path("refused").asLong();
      assertEquals(probe.path("request").asText().equals("probe another user's database")
          ? figures.path("letInCount").asLong() : 0, letIn, probe.toString());
    }
    assertEquals(USERS, figures.path("wrongLogins").get(0).path("refused").asLong(), figures.toString());
    assertLeftNothing(prefix);
    assertNoAdminPassword(run);
  }

  @Test
  void shouldRefuseAWriteOverAnotherUsersDocumentInASharedDatabaseThroughItsValidateDocUpdate() throws Exception {
    String prefix = "tenants_shared";
    CompletableFuture<String> validate = duringRun("/" + prefix + "_shared/" + TenantAccounts.OWNERSHIP);
    Map<String, String> properties = load(prefix, "basic", AUTH_USERS);
    properties.put("databases", "shared");

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    assertTrue(JSON.readTree(validate.get()).path("validate_doc_update").asText().contains("forbidden"),
        validate.get());
    JsonNode results = assertEveryRequestOfItsOwnLetInAndEveryOtherRefused(run, "basic");
    assertEquals(List.of("probe a write over another user's document", "probe a database never given",
        "probe another user's _users document"), results.path("figures").path("probes").findValuesAsText("request"));
    assertLeftNothing(prefix);
  }

  @Test
  void shouldRefuseEveryCrossUserRequestToDatabasesMadeByCouchPeruserAndRestoreItsSettings() throws Exception {
    String prefix = "tenants_peruser";
    String userdb = "userdb-" + HexFormat.of().formatHex((prefix + "_00000").getBytes(StandardCharsets.UTF_8));
    CompletableFuture<String> enabled = duringRun("/_node/_local/_config/couch_peruser/enable");
    CompletableFuture<String> security = CompletableFuture.supplyAsync(() -> {
      awaitMembers(userdb, prefix + "_00000");
      return COUCHDB.node().request("GET", "/" + userdb + "/_security", null);
    });
    Map<String, String> properties = load(prefix, "basic", AUTH_USERS);
    properties.put("databases", "peruser");

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    assertEquals("\"true\"", enabled.get().strip(), "couch_peruser enabled on the node for the run");
    assertTrue(run.output().contains("tenants: couch_peruser made the " + AUTH_USERS + " users' databases in "),
        run.output());
    assertEquals("[\"" + prefix + "_00000\"]", JSON.readTree(security.get()).path("members").path("names")
        .toString(), "its members, as couch_peruser set them: " + security.get());
    assertEveryRequestOfItsOwnLetInAndEveryOtherRefused(run, "basic");
    assertLeftNothing(prefix);
    JsonNode databases = JSON.readTree(COUCHDB.node().request("GET", "/_all_dbs", null));
    String userdbs = "userdb-" + HexFormat.of().formatHex(prefix.getBytes(StandardCharsets.UTF_8));
    databases.forEach(database -> assertFalse(database.asText().startsWith(userdbs), databases.toString()));
    assertEquals("{}", COUCHDB.node().request("GET", "/_node/_local/_config/couch_peruser", null).strip(),
        "couch_peruser's settings restored");
  }

  @Test
  void shouldFailTheRunNamingAWriteOverAnotherUsersDocumentLetInByAValidateDocUpdateThatChecksNothing()
      throws Exception {
    String prefix = "tenants_open_shared";
    String shared = prefix + "_shared";
    int users = 10;
    // Once the run has put its validate_doc_update in the shared database, the test puts one in its place that lets
    // every write in: each user's write over the next one's document is then let in.
    CompletableFuture<Void> opened = duringRun("/" + shared + "/" + TenantAccounts.OWNERSHIP).thenAccept(design -> {
      try {
        COUCHDB.node().request("PUT", "/" + shared + "/" + TenantAccounts.OWNERSHIP, JSON.createObjectNode()
            .put("_rev", JSON.readTree(design).path("_rev").asText())
            .put("validate_doc_update", "function (newDoc, oldDoc, userCtx) { }").toString());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    });
    Map<String, String> properties = load(prefix, "basic", users);
    properties.put("databases", "shared");

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    opened.get();
    assertEquals(2, run.exitCode(), run.why());
    String named = "user " + prefix + "_00000 was let in: probe a write over another user's document, PUT /" + shared
        + "/" + prefix + "_00001:doc00000 answered 201 (expected 401, 403 or 404)";
    assertTrue(run.output().contains(named), run.output());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode figures = results.path("figures");
    for (JsonNode probe : figures.path("probes")) {
      long letIn = probe.path("tried").asLong() - probe.path("refused").asLong();
      boolean writeOver = probe.path("request").asText().equals("probe a write over another user's document");
      assertEquals(writeOver ? figures.path("letInCount").asLong() : 0, letIn, probe.toString());
      assertTrue(!writeOver || letIn >= users, "each user's first write over let in: " + probe);
    }
    assertLeftNothing(prefix);
  }

  @Test
  void shouldAdoptRenewedCookiesAndRefuseAnExpiredOneOfSessionsOfUsersDrawnZipfian() throws Exception {
    String prefix = "tenants_renewal";
    int sessions = 2 * AUTH_USERS;
    CompletableFuture<String> timeout = duringRun("/_node/_local/_config/chttpd_auth/timeout");
    Map<String, String> properties = load(prefix, "cookie", AUTH_USERS);
    // Cookies of 2 s in 5 s of requests: each user's login cookie lapses mid-run, and CouchDB renews it after 1 s.
    properties.putAll(Map.of("cookieTimeout", "2", "duration", "5", "active", "zipfian", "sessions",
        String.valueOf(sessions)));

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    assertEquals("\"2\"", timeout.get().strip(), "-DcookieTimeout set on the node for the run");
    assertEquals(0, run.exitCode(), run.why());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode figures = results.path("figures");
    JsonNode active = figures.path("active");
    assertEquals("zipfian", active.path("distribution").asText(), active.toString());
    assertEquals(sessions, active.path("sessions").asInt(), active.toString());
    int drawn = active.path("users").asInt();
    // 40 sessions over 20 users: some user has two or more.
    assertTrue(drawn >= 1 && drawn <= AUTH_USERS && active.path("busiest").asInt() >= 2, active.toString());
    assertEquals(sessions, ok(results, "cookie login"), "each session's POST /_session");
    // The sessions' reads and writes after their login cookie lapsed went in with the renewed ones.
    assertTrue(figures.path("cookieRenewals").asLong() > 0, figures.toString());
    assertEquals(0, ko(results, "cookie read") + ko(results, "cookie write"), results.path("requests").toString());
    assertEquals(List.of("cookie wrong password", "cookie expired cookie"), figures.path("wrongLogins")
        .findValuesAsText("request"), figures.toString());
    // Each drawn user's login cookie, exactly as saved, let in right after its login (its first session): the same
    // cookie refused at the end was refused for its age.
    assertEquals(drawn, ok(results, "cookie login cookie, fresh"), results.path("requests").toString());
    assertEquals(0, ko(results, "cookie login cookie, fresh"), results.path("requests").toString());
    // Each user drawn tries each wrong login once, in its first session.
    assertEveryProbeRefused(results, figures, drawn);
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains("Active users"
        + " (-Dactive=zipfian): " + sessions + " sessions"), "the page says who was drawn");
    assertLeftNothing(prefix);
    assertFalse(JSON.readTree(COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth", null))
        .has("timeout"), "the cookies' timeout restored to CouchDB's built-in default");
  }

  @Test
  void shouldLetInEachMethodsUsersAndRefuseEachMethodsWrongLoginsInOneRunOfBasicCookieJwtAndProxy() throws Exception {
    String prefix = "tenants_mix";
    String nodeSecret = COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth/secret", null);
    CompletableFuture<String> key = duringRun("/_node/_local/_config/jwt_keys/hmac:_default");
    CompletableFuture<String> secret = CompletableFuture.supplyAsync(() -> {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        String now = COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth/secret", null);
        if (!now.equals(nodeSecret)) {
          return now;
        }
        pause();
      }
      throw new AssertionError("[chttpd_auth] secret never changed");
    });
    // Every user's database with the ownership check: a token's sub and the proxy's name are the names
    // validate_doc_update is given.
    CompletableFuture<String> validate = duringRun("/" + prefix + "_00000/" + TenantAccounts.OWNERSHIP);
    Map<String, String> properties = load(prefix, "basic,cookie,jwt,proxy", AUTH_USERS);
    properties.put("validate", "true");

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    assertTrue(run.output().contains("CouchDB names jwt and proxy among its authentication handlers"), run.output());
    assertTrue(JSON.readTree(validate.get()).path("validate_doc_update").asText().contains("forbidden"),
        validate.get());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode figures = results.path("figures");
    // User k by method k mod 4: 5 users each.
    int each = AUTH_USERS / 4;
    Map<String, List<String>> wrongLogins = new LinkedHashMap<>();
    wrongLogins.put("basic", List.of("basic wrong password"));
    wrongLogins.put("cookie", List.of("cookie wrong password"));
    wrongLogins.put("jwt", List.of("jwt token signed with a wrong key", "jwt expired token"));
    wrongLogins.put("proxy", List.of("proxy wrong proxy token"));
    assertEquals(List.copyOf(wrongLogins.keySet()), figures.path("auths").findValuesAsText("auth"),
        figures.toString());
    for (JsonNode method : figures.path("auths")) {
      assertEquals(each, method.path("users").asInt(), method.toString());
      assertEquals(each, method.path("sessions").asInt(), method.toString());
    }
    for (String auth : wrongLogins.keySet()) {
      assertEquals(each, ok(results, auth + " first request"), auth + "'s users' first requests");
      assertEquals(0, ko(results, auth + " first request") + ko(results, auth + " read") + ko(results, auth
          + " write"), results.path("requests").toString());
      assertTrue(ok(results, auth + " read") > 0 && ok(results, auth + " write") > 0,
          auth + ": " + results.path("requests"));
      for (String wrong : wrongLogins.get(auth)) {
        // Each refused (a wrong key's 400 Bad HMAC, the others 401) and counted, by the method's users alone.
        assertEquals(each, ok(results, wrong), wrong + ": " + results.path("requests"));
        assertEquals(each, wrongLogin(figures, wrong).path("tried").asLong(), figures.toString());
        assertEquals(each, wrongLogin(figures, wrong).path("refused").asLong(), figures.toString());
      }
    }
    assertEquals(each, ok(results, "cookie login"), "each cookie user's POST /_session");
    assertEquals(wrongLogins.values().stream().flatMap(List::stream).toList(), figures.path("wrongLogins")
        .findValuesAsText("request"), figures.toString());
    assertEveryProbeRefused(results, figures, AUTH_USERS, each);
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains("login and requests, basic,"
        + " cookie, jwt and proxy auth: cold and warm"), "one table of the four methods on the page");
    assertLeftNothing(prefix);
    assertEquals(nodeSecret, COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth/secret", null),
        "the node's own secret restored");
    String runKey = JSON.readTree(key.get()).asText();
    assertNoSecret(run, runKey, Base64.getUrlEncoder().withoutPadding().encodeToString(Base64.getDecoder()
        .decode(runKey)));
    assertNoSecret(run, JSON.readTree(secret.get()).asText());
    assertNoSecret(run, JSON.readTree(nodeSecret).asText());
    assertNoAdminPassword(run);
  }

  @Test
  void shouldRefuseEveryCrossUserRequestOfAThousandBasicAuthUsersAndRestoreTheSettings() throws Exception {
    String prefix = "tenants_thousand";
    Map<String, String> properties = load(prefix, "basic", THOUSAND);
    // Short: a password hashed once (the users created in bulk), one document each, one second of requests; 2,000
    // shards open at most, so that CouchDB's 500 (250 a couch_server here) refuses none of them.
    properties.putAll(Map.of("iterations", "1", "docs", "1", "duration", "1", "probeEvery", "2", "maxDbsOpen",
        "3000"));

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    assertEquals(THOUSAND, ok(results, "basic first request"), "each user's first request");
    assertEveryProbeRefused(results, results.path("figures"), THOUSAND);
    JsonNode figures = results.path("figures");
    assertEquals(0, figures.path("wall").path("refused").path("all_dbs_active").asLong(), figures.toString());
    assertTrue(ok(results, "basic read") > 0 && ok(results, "basic write") > 0, results.path("requests").toString());
    assertTrue(figures.path("iterations").asText().startsWith("1 (-Diterations"), figures.toString());
    assertLeftNothing(prefix);
    assertNoAdminPassword(run);
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    long tried = figures.path("probes").findValues("tried").stream().mapToLong(JsonNode::asLong).sum();
    assertTrue(page.contains(String.format(Locale.ROOT, "Security: %,d probes tried", tried)), "the page says the "
        + tried + " probes: " + page);
  }

  @Test
  void shouldCountRefusalsForWantOfAnOpenDatabaseApartWhenActiveDatabasesPassMaxDbsOpenAndRestoreIt()
      throws Exception {
    String prefix = "tenants_wall";
    CompletableFuture<String> limit = duringRun("/_node/_local/_config/couchdb/max_dbs_open");
    Map<String, String> properties = load(prefix, "basic", WALL_USERS);
    properties.put("maxDbsOpen", String.valueOf(WALL_LIMIT));

    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(properties), TIMEOUT);

    assertEquals("\"" + WALL_LIMIT + "\"", limit.get().strip(), "-DmaxDbsOpen set on the node for the run");
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode figures = results.path("figures");
    JsonNode wall = figures.path("wall");
    long refused = 0;
    List<String> lines = Files.readAllLines(run.requireRunFolder().resolve("seconds.csv"));
    List<String> columns = List.of(lines.get(0).split(","));
    for (WallRefusal kind : WallRefusal.values()) {
      long counted = wall.path("refused").path(kind.reason()).asLong(-1);
      assertEquals(counted, column(lines, columns, kind.column()).stream().mapToDouble(Double::doubleValue).sum(),
          "seconds.csv's " + kind.column() + " against results.json: " + wall);
      refused += counted;
    }
    long failed = 0;
    for (JsonNode entry : results.path("requests")) {
      failed += entry.path("ko").asLong();
    }
    // 30 users' databases of 2 shards each against 10 open: CouchDB 3.5 refused some in every run here, and also
    // failed a few reads and writes with other 500s (read_failure, a pread of a closed file, internal_server_error),
    // which fail the run, named; every other request was answered.
    assertTrue(refused > 0, "refusals at " + WALL_USERS + " users' databases against max_dbs_open " + WALL_LIMIT + ": "
        + wall);
    assertEquals(failed, refused + figures.path("failedCount").asLong(), "each failed request counted: a refusal for"
        + " want of an open database, or another failure: " + figures);
    figures.path("failed").forEach(line -> assertTrue(line.asText().contains(": answered 500 ("), line.asText()));
    assertEquals(figures.path("failedCount").asLong() == 0 ? 0 : 2, run.exitCode(), run.why());
    List<Double> open = column(lines, columns, "couchdb open databases (count)");
    long atStart = wall.path("openAtStart").asLong();
    assertTrue(!open.isEmpty() && open.stream().allMatch(count -> count <= Math.max(atStart, WALL_LIMIT)
        + SYSTEM_DATABASES), "open databases held at the limit (or where they were when it was set): " + open
        + ", at start " + atStart);
    assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html")).contains("open databases and files"
        + " against max_dbs_open"), "charted on the page");
    assertLeftNothing(prefix);
  }

  @Test
  void shouldRefuseALoginThatIsNotAnAdminsAndPouchDbServerInOneLineBeforeMakingAnything() throws Exception {
    COUCHDB.node().request("PUT", "/_users/org.couchdb.user:plain", "{\"name\":\"plain\",\"password\":"
        + "\"plain-Secret-3321\",\"roles\":[],\"type\":\"user\"}");
    Map<String, String> plain = COUCHDB.runProperties(load("tenants_plain", "basic"));
    plain.putAll(Map.of("couchdb.user", "plain", "couchdb.password", "plain-Secret-3321"));

    GatlingRun.Result notAdmin = GatlingRun.run("Tenants", plain, TIMEOUT);

    notAdmin.assertStoppedBeforeLoad("does not take the login of user 'plain' as a server admin's (roles []):"
        + " Tenants creates users in _users and their databases, and sets [chttpd_auth] iterations on every node;"
        + " give a server admin's -Dcouchdb.user and -Dcouchdb.password");
    assertFalse(notAdmin.output().contains("plain-Secret-3321"), notAdmin.output());
    assertLeftNothing("tenants_plain");
    try (PouchDbServer pouch = PouchDbServer.start()) {
      Map<String, String> properties = load("tenants_pouch", "basic");
      properties.put("couchdb.url", pouch.url());
      GatlingRun.run("Tenants", properties, TIMEOUT).assertStoppedBeforeLoad("Tenants needs Apache CouchDB 3.x,"
          + " whose _users keeps each user's document from the others and whose settings that API changes"
          + " (pouchdb-server has neither)");
    }
  }

  private static Map<String, String> load(String prefix, String auth) {
    return load(prefix, auth, USERS);
  }

  private static Map<String, String> load(String prefix, String auth, int users) {
    return new HashMap<>(Map.of("tenants", String.valueOf(users), "auth", auth, "iterations", "1000",
        "duration", "3", "probeEvery", "5", "docs", "5", "database", prefix));
  }

  // A run of AUTH_USERS users whose first, read and write requests are all OK, and whose probes and wrong logins are
  // all refused; its results.json.
  private static JsonNode assertEveryRequestOfItsOwnLetInAndEveryOtherRefused(GatlingRun.Result run, String auth)
      throws Exception {
    assertEquals(0, run.exitCode(), run.why());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    assertEquals(AUTH_USERS, ok(results, auth + " first request"), "each user's first request");
    assertEquals(0, ko(results, auth + " read") + ko(results, auth + " write"), results.path("requests").toString());
    assertTrue(ok(results, auth + " read") > 0 && ok(results, auth + " write") > 0,
        results.path("requests").toString());
    assertEveryProbeRefused(results, results.path("figures"), AUTH_USERS);
    return results;
  }

  private static void assertEveryProbeRefused(JsonNode results, JsonNode figures, int users) {
    assertEveryProbeRefused(results, figures, users, users);
  }

  // Each probe tried by each of the users, each wrong login by each of its method's.
  private static void assertEveryProbeRefused(JsonNode results, JsonNode figures, int users, int usersOfAMethod) {
    for (JsonNode probe : figures.path("probes")) {
      // Each user tries each kind once as it starts, and again now and then.
      assertTrue(probe.path("tried").asLong() >= users, probe.toString());
      assertEquals(probe.path("tried").asLong(), probe.path("refused").asLong(), probe.toString());
      assertEquals(probe.path("tried").asLong(), ok(results, probe.path("request").asText()), probe.toString());
    }
    for (JsonNode wrong : figures.path("wrongLogins")) {
      assertEquals(usersOfAMethod, wrong.path("tried").asLong(), figures.toString());
      assertEquals(usersOfAMethod, wrong.path("refused").asLong(), figures.toString());
    }
    assertEquals(0, figures.path("letInCount").asLong(), figures.toString());
  }

  // The value of a setting once the run has set it.
  private static CompletableFuture<String> duringRun(String path) {
    return CompletableFuture.supplyAsync(() -> {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        try {
          return COUCHDB.node().request("GET", path, null);
        } catch (IllegalStateException notYet) {
          pause();
        }
      }
      throw new AssertionError(path + " was never set");
    });
  }

  // The users, their databases and the settings, as before the run: the node's handlers answer again as they did.
  private static void assertLeftNothing(String prefix) throws Exception {
    JsonNode users = JSON.readTree(COUCHDB.node().request("GET", "/_users/_all_docs?startkey=%22org.couchdb.user:"
        + prefix + "%22&endkey=%22org.couchdb.user:" + prefix + "%EF%BF%B0%22", null));
    assertEquals(0, users.path("rows").size(), users.toString());
    JsonNode databases = JSON.readTree(COUCHDB.node().request("GET", "/_all_dbs", null));
    databases.forEach(database -> assertFalse(database.asText().startsWith(prefix), databases.toString()));
    assertFalse(JSON.readTree(COUCHDB.node().request("GET", "/_node/_local/_config/couchdb", null))
        .has("max_dbs_open"), "max_dbs_open restored to CouchDB's built-in default");
    JsonNode section = JSON.readTree(COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth", null));
    assertFalse(section.has("iterations"), "restored to CouchDB's built-in default: " + section);
    assertFalse(section.has("proxy_use_secret"), section.toString());
    JsonNode chttpd = JSON.readTree(COUCHDB.node().request("GET", "/_node/_local/_config/chttpd", null));
    assertFalse(chttpd.has("authentication_handlers") || chttpd.has("server_options"), chttpd.toString());
    assertEquals("{}", COUCHDB.node().request("GET", "/_node/_local/_config/jwt_keys", null).strip());
    long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
    String handlers = "";
    while (System.nanoTime() < deadline && !handlers.equals("[\"cookie\",\"default\"]")) {
      try {
        handlers = JSON.readTree(COUCHDB.node().request("GET", "/_session", null)).path("info")
            .path("authentication_handlers").toString();
      } catch (RuntimeException restarting) {
        // the listener restarts as its options are restored
      }
      pause();
    }
    assertEquals("[\"cookie\",\"default\"]", handlers, "the node's handlers as CouchDB 3.5 has them by default");
  }

  // The secret drawn for the run, or the node's own: in no output and no file of the run.
  private static void assertNoSecret(GatlingRun.Result run, String... forms) throws Exception {
    for (String secret : forms) {
      assertFalse(run.output().contains(secret), "a secret in the output");
      try (Stream<Path> files = Files.walk(run.resultsRoot())) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
          assertFalse(text.contains(secret), "a secret in " + file);
        }
      }
    }
  }

  private static void assertNoAdminPassword(GatlingRun.Result run) throws Exception {
    String basic = Base64.getEncoder().encodeToString((RealCouchDb.USER + ":" + RealCouchDb.PASSWORD)
        .getBytes(StandardCharsets.UTF_8));
    assertFalse(run.output().contains(RealCouchDb.PASSWORD) || run.output().contains(basic), run.output());
    try (Stream<Path> files = Files.walk(run.requireRunFolder())) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        assertFalse(text.contains(RealCouchDb.PASSWORD) || text.contains(basic), "the admin's password in " + file);
      }
    }
  }

  private static void awaitMembers(String database, String user) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      try {
        JsonNode security = JSON.readTree(COUCHDB.node().request("GET", "/" + database + "/_security", null));
        if (security.path("members").path("names").toString().contains(user)) {
          return;
        }
      } catch (Exception notYet) {
        // the database is not there yet
      }
      pause();
    }
    throw new AssertionError(database + "'s _security never named " + user);
  }

  // Also TenantsClusterIT's.
  static void pause() {
    try {
      Thread.sleep(20);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  // A column of seconds.csv, its empty cells left out.
  private static List<Double> column(List<String> lines, List<String> columns, String name) {
    int index = columns.indexOf(name);
    assertTrue(index >= 0, name + " in seconds.csv: " + columns);
    return lines.subList(1, lines.size()).stream().map(line -> line.split(",", -1)).filter(cells -> cells.length
        > index && !cells[index].isEmpty()).map(cells -> Double.parseDouble(cells[index])).toList();
  }

  private static JsonNode wrongLogin(JsonNode figures, String request) {
    for (JsonNode wrong : figures.path("wrongLogins")) {
      if (wrong.path("request").asText().equals(request)) {
        return wrong;
      }
    }
    return JSON.createObjectNode();
  }

  // Also TenantsClusterIT's.
  static long ok(JsonNode results, String name) {
    return entry(results, name).path("ok").asLong();
  }

  private static long ko(JsonNode results, String name) {
    return entry(results, name).path("ko").asLong();
  }

  private static JsonNode entry(JsonNode results, String name) {
    for (JsonNode entry : results.path("requests")) {
      if (entry.path("name").asText().equals(name)) {
        return entry;
      }
    }
    return JSON.createObjectNode();
  }
}
