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
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tenants on a real Apache CouchDB 3.5 node: 50 users each with basic and with cookie auth, their passwords hashed at
 * -Diterations=1000 (CouchDB 3.5's 600,000 would take the node about a minute of hashing per 100 users: far too slow
 * for a test). Every cross-user request is refused and counted; a database whose _security the test opens mid-run is
 * let in and fails the run, named; after each run, passed or failed, the users and databases are gone and
 * [chttpd_auth] iterations is as it was (unset). A login that is not an admin's, and pouchdb-server, are refused in one
 * line before anything is made. The admin's password appears in no output and no file of a run.
 */
class TenantsIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int USERS = 50;

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldRefuseEveryCrossUserRequestOfFiftyBasicAuthUsersAndRestoreTheSetting() throws Exception {
    GatlingRun.Result run = GatlingRun.run("Tenants", COUCHDB.runProperties(load("tenants_basic", "basic")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.output());
    JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
    JsonNode figures = results.path("figures");
    assertEquals(USERS, ok(results, "basic first request"), "each user's first request");
    assertTrue(ok(results, "basic read") > 0 && ok(results, "basic write") > 0, results.path("requests").toString());
    assertEveryProbeRefused(results, figures);
    assertTrue(figures.path("iterations").asText().startsWith("1000 (-Diterations"), figures.toString());
    assertLeftNothing("tenants_basic");
    assertNoAdminPassword(run);
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("Security: " + figures.path("probes").findValues("tried").stream()
        .mapToLong(JsonNode::asLong).sum() + " probes tried"), page);
  }

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
    assertEquals(2, run.exitCode(), run.output());
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
    assertEquals(USERS, figures.path("wrongPasswordsRefused").asLong(), figures.toString());
    assertLeftNothing(prefix);
    assertNoAdminPassword(run);
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
    return new HashMap<>(Map.of("tenants", String.valueOf(USERS), "auth", auth, "iterations", "1000",
        "duration", "3", "probeEvery", "5", "docs", "5", "database", prefix));
  }

  private static void assertEveryProbeRefused(JsonNode results, JsonNode figures) {
    for (JsonNode probe : figures.path("probes")) {
      // Each user tries each kind once as it starts, and again now and then.
      assertTrue(probe.path("tried").asLong() >= USERS, probe.toString());
      assertEquals(probe.path("tried").asLong(), probe.path("refused").asLong(), probe.toString());
      assertEquals(probe.path("tried").asLong(), ok(results, probe.path("request").asText()), probe.toString());
    }
    assertEquals(USERS, figures.path("wrongPasswords").asLong(), figures.toString());
    assertEquals(USERS, figures.path("wrongPasswordsRefused").asLong(), figures.toString());
    assertEquals(0, figures.path("letInCount").asLong(), figures.toString());
  }

  // The users, their databases and the setting, as before the run.
  private static void assertLeftNothing(String prefix) throws Exception {
    JsonNode users = JSON.readTree(COUCHDB.node().request("GET", "/_users/_all_docs?startkey=%22org.couchdb.user:"
        + prefix + "%22&endkey=%22org.couchdb.user:" + prefix + "%EF%BF%B0%22", null));
    assertEquals(0, users.path("rows").size(), users.toString());
    JsonNode databases = JSON.readTree(COUCHDB.node().request("GET", "/_all_dbs", null));
    databases.forEach(database -> assertFalse(database.asText().startsWith(prefix), databases.toString()));
    JsonNode section = JSON.readTree(COUCHDB.node().request("GET", "/_node/_local/_config/chttpd_auth", null));
    assertFalse(section.has("iterations"), "restored to CouchDB's built-in default: " + section);
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
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    throw new AssertionError(database + "'s _security never named " + user);
  }

  private static long ok(JsonNode results, String name) {
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
