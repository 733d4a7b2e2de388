package couchbench.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchDbException;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.data.RandomText;
import couchbench.startup.Console;
import couchbench.targets.Credentials;
import java.security.SecureRandom;
import java.time.Duration;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The users of a run and what they are given, as a server admin makes them before the load: a login each in
 * {@code _users} (created through {@code _users/_bulk_docs}; the server hashes each password with its PBKDF2
 * iterations), a database each whose {@code _security} names that user alone (-Ddatabases=own) or one database whose
 * {@code _security} names them all (shared), seeded with documents each user owns (its {@code owner} field), with
 * -Dvalidate a {@code validate_doc_update} that lets only a document's owner write it, and one database no user is
 * given. {@link #delete} removes them all, and what an earlier run of the same names left.
 */
final class TenantAccounts {

  /** The documents each database is seeded with are named doc00000, doc00001, ... */
  static final String SEEDED = "doc";

  /** The design document that holds the ownership check (-Dvalidate=true). */
  static final String OWNERSHIP = "_design/couchbench_ownership";

  // A server admin writes anything (the seeding); a user writes only documents whose owner it is, and never changes a
  // document of another owner. CouchDB answers the forbidden throw with 403.
  private static final String VALIDATE = "function (newDoc, oldDoc, userCtx) {"
      + " if (userCtx.roles.indexOf('_admin') !== -1) { return; }"
      + " if (oldDoc && oldDoc.owner !== userCtx.name) { throw({forbidden: 'only its owner writes this document'}); }"
      + " if (newDoc.owner !== userCtx.name) { throw({forbidden: 'a user writes only documents whose owner it is'}); }"
      + " }";

  /** What couch_peruser's databases are named with, before the hex of their user's name; set for the run. */
  static final String PERUSER_PREFIX = "userdb-";

  private static final ObjectMapper JSON = new ObjectMapper();
  // How long couch_peruser may take to make the users' databases, and how often the run says how far it is.
  private static final Duration PERUSER_WAIT = Duration.ofMinutes(5);
  private static final Duration PERUSER_PROGRESS = Duration.ofSeconds(2);
  // Users per _bulk_docs: at 600,000 iterations each costs CouchDB about a second of hashing, so a batch is small
  // and given long to answer.
  private static final int USER_BATCH = 50;
  private static final Duration USER_BATCH_TIMEOUT = Duration.ofMinutes(10);
  private static final int DELETE_BATCH = 1000;
  private static final int DOC_SIZE = 200;
  // Databases made or deleted at once: a database's creation waits on its shards' files, not on CouchDB's CPU. One at
  // a time under a -DmaxDbsOpen below CouchDB's default: at 10, making 8 at once had CouchDB 3.5 refuse some (No DB
  // shards could be opened).
  private static final int DATABASES_AT_ONCE = 8;
  private static final int DEFAULT_MAX_DBS_OPEN = 500;

  private final TenantsPlan plan;
  private final CouchDbClient admin;
  private final List<Tenant> tenants;
  // Each user's first document's revision as seeded: another user's write over it must carry it, or CouchDB answers
  // 409 before its validate_doc_update is asked.
  private final Map<Integer, String> firstRevs = new ConcurrentHashMap<>();

  /**
   * @param plan the run's plan: how many users, their names' prefix
   * @param admin a client logged in as a server admin
   */
  TenantAccounts(TenantsPlan plan, CouchDbClient admin) {
    this.plan = plan;
    this.admin = admin;
    SecureRandom random = new SecureRandom();
    List<Tenant> drawn = new ArrayList<>();
    for (int i = 0; i < plan.tenants(); i++) {
      byte[] password = new byte[18];
      random.nextBytes(password);
      String name = String.format(Locale.ROOT, "%s_%05d", plan.prefix(), i);
      Credentials credentials = new Credentials(name, Base64.getUrlEncoder().encodeToString(password));
      drawn.add(switch (plan.databases()) {
        case OWN -> new Tenant(i, credentials, name, "");
        case PERUSER -> new Tenant(i, credentials, PERUSER_PREFIX + HexFormat.of().formatHex(name.getBytes(
            StandardCharsets.UTF_8)), "");
        case SHARED -> new Tenant(i, credentials, sharedDatabase(), name + ":");
      });
    }
    this.tenants = List.copyOf(drawn);
  }

  /** @return the users, by index */
  List<Tenant> tenants() {
    return tenants;
  }

  /** @return the database all users share with -Ddatabases=shared */
  String sharedDatabase() {
    return plan.prefix() + "_shared";
  }

  /**
   * @param tenant a user
   * @return the revision of its first document as seeded
   */
  String firstRev(Tenant tenant) {
    return firstRevs.get(tenant.index());
  }

  /** @return the database no user is given: its _security lets in server admins alone */
  String closedDatabase() {
    return plan.prefix() + "_closed";
  }

  /**
   * Creates the users, then their databases with their _security and documents, then the closed database; an
   * earlier run's users of the same names are deleted first, its databases replaced.
   *
   * @throws TenantsException naming what the server refused
   */
  void create() {
    deleteUsers();
    if (plan.databases() == TenantsPlan.Databases.PERUSER) {
      // An earlier run's, which couch_peruser would keep with their documents.
      eachAtOnce(tenant -> admin.deleteDatabase(tenant.database()));
    }
    Console.say(String.format(Locale.ROOT, "tenants: creating %,d users in _users (CouchDB hashes each password with"
        + " its PBKDF2 iterations)", tenants.size()));
    for (int from = 0; from < tenants.size(); from += USER_BATCH) {
      createUsers(tenants.subList(from, Math.min(tenants.size(), from + USER_BATCH)));
    }
    if (plan.databases() == TenantsPlan.Databases.SHARED) {
      admin.createDatabase(sharedDatabase());
      putSecurity(sharedDatabase(), security(tenants.stream().map(Tenant::name).toList(), List.of()));
      putOwnership(sharedDatabase());
      eachAtOnce(this::seed);
    } else if (plan.databases() == TenantsPlan.Databases.PERUSER) {
      awaitPeruserDatabases();
      eachAtOnce(tenant -> {
        awaitPeruserSecurity(tenant);
        if (plan.validate()) {
          putOwnership(tenant.database());
        }
        seed(tenant);
      });
    } else {
      eachAtOnce(tenant -> {
        admin.createDatabase(tenant.database());
        putSecurity(tenant.database(), security(List.of(tenant.name()), List.of()));
        if (plan.validate()) {
          putOwnership(tenant.database());
        }
        seed(tenant);
      });
    }
    admin.createDatabase(closedDatabase());
    putSecurity(closedDatabase(), security(List.of(), List.of("_admin")));
    String ownership = plan.validate() ? ", every write checked by " + OWNERSHIP + "'s validate_doc_update" : "";
    Console.say(plan.databases() == TenantsPlan.Databases.SHARED
        ? String.format(Locale.ROOT, "tenants: %,d users created, sharing %s (its _security names them all), %,d"
            + " documents each%s; %s is given to none", tenants.size(), sharedDatabase(), plan.docs(), ownership,
            closedDatabase())
        : String.format(Locale.ROOT, "tenants: %,d users created, each with a database%s of %,d documents whose"
            + " _security names it alone%s; %s is given to none", tenants.size(), plan.databases()
            == TenantsPlan.Databases.PERUSER ? " made by couch_peruser (" + PERUSER_PREFIX + "<hex of its name>)" : "",
            plan.docs(), ownership, closedDatabase()));
  }

  /** Deletes the users and databases. */
  void delete() {
    deleteUsers();
    if (plan.databases() == TenantsPlan.Databases.SHARED) {
      admin.deleteDatabase(sharedDatabase());
    } else {
      eachAtOnce(tenant -> deleteDatabase(tenant.database()));
    }
    admin.deleteDatabase(closedDatabase());
    Console.say(String.format(Locale.ROOT, "tenants: the %,d users and their databases deleted", tenants.size()));
  }

  // With couch_peruser's delete_dbs the server deletes a user's database as the user goes: whichever DELETE comes
  // second finds none (404, taken as deleted), but one sent while the server's own is under way was answered 500
  // (unknown_error, badarg) by CouchDB 3.5. Such a refusal is fine once the database is gone; asked again while it is
  // not, for 2 s at most.
  private void deleteDatabase(String database) {
    for (int attempt = 1; ; attempt++) {
      try {
        admin.deleteDatabase(database);
        return;
      } catch (CouchDbException e) {
        if (!admin.databaseExists(database)) {
          return;
        }
        if (attempt == 20) {
          throw e;
        }
        pause();
      }
    }
  }

  // Each user's database work, DATABASES_AT_ONCE users at a time; the first failure thrown, the others stopped.
  private void eachAtOnce(Consumer<Tenant> work) {
    int atOnce = plan.maxDbsOpen().orElse(DEFAULT_MAX_DBS_OPEN) < DEFAULT_MAX_DBS_OPEN ? 1 : DATABASES_AT_ONCE;
    ExecutorService threads = Executors.newFixedThreadPool(atOnce, task -> {
      Thread thread = new Thread(task, "couchbench-tenants-databases");
      thread.setDaemon(true);
      return thread;
    });
    try {
      List<Future<?>> done = tenants.stream().<Future<?>>map(tenant -> threads.submit(() -> work.accept(tenant)))
          .toList();
      for (Future<?> each : done) {
        each.get();
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : new TenantsException(e.getCause().toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TenantsException("interrupted while making the users' databases");
    } finally {
      threads.shutdownNow();
    }
  }

  private void createUsers(List<Tenant> batch) {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    for (Tenant tenant : batch) {
      ObjectNode user = docs.addObject().put("_id", tenant.userDocId()).put("name", tenant.name())
          .put("type", "user").put("password", tenant.credentials().password());
      user.putArray("roles");
    }
    CouchReply reply = admin.exchange("POST", "/_users/_bulk_docs", body.toString(), USER_BATCH_TIMEOUT);
    JsonNode results = ReplyJson.of(reply.body());
    if (reply.status() / 100 != 2 || !results.isArray()) {
      throw new TenantsException("creating users " + batch.get(0).name() + " to " + batch.get(batch.size() - 1).name()
          + " through POST /_users/_bulk_docs failed: " + reply.status() + " " + reply.reason());
    }
    for (JsonNode result : results) {
      if (!result.hasNonNull("rev")) {
        throw new TenantsException("creating user " + result.path("id").asText() + " in _users failed: "
            + result.path("error").asText("no rev") + " " + result.path("reason").asText(""));
      }
    }
  }

  // The run's users still in _users (an earlier run's, kept or killed, or this run's), with their revisions.
  private void deleteUsers() {
    for (int from = 0; from < tenants.size(); from += DELETE_BATCH) {
      ObjectNode keys = JSON.createObjectNode();
      ArrayNode ids = keys.putArray("keys");
      tenants.subList(from, Math.min(tenants.size(), from + DELETE_BATCH)).forEach(t -> ids.add(t.userDocId()));
      CouchReply found = admin.exchange("POST", "/_users/_all_docs", keys.toString());
      ObjectNode deletions = JSON.createObjectNode();
      ArrayNode docs = deletions.putArray("docs");
      for (JsonNode row : ReplyJson.of(found.body()).path("rows")) {
        if (row.path("value").hasNonNull("rev") && !row.path("value").path("deleted").asBoolean()) {
          docs.addObject().put("_id", row.path("id").asText()).put("_rev", row.path("value").path("rev").asText())
              .put("_deleted", true);
        }
      }
      if (!docs.isEmpty()) {
        CouchReply reply = admin.exchange("POST", "/_users/_bulk_docs", deletions.toString());
        if (reply.status() / 100 != 2) {
          throw new TenantsException("deleting " + docs.size() + " users from _users failed: " + reply.status() + " "
              + reply.reason());
        }
      }
    }
  }

  private static ObjectNode security(List<String> memberNames, List<String> memberRoles) {
    ObjectNode security = JSON.createObjectNode();
    ObjectNode admins = security.putObject("admins");
    admins.putArray("names");
    admins.putArray("roles");
    ObjectNode members = security.putObject("members");
    memberNames.forEach(members.putArray("names")::add);
    memberRoles.forEach(members.putArray("roles")::add);
    return security;
  }

  private void putSecurity(String database, ObjectNode security) {
    CouchReply reply = admin.exchange("PUT", "/" + database + "/_security", security.toString());
    if (reply.status() != 200) {
      throw new TenantsException("setting the _security of " + database + " failed: " + reply.status() + " "
          + reply.reason());
    }
  }

  // couch_peruser makes a database for each user it sees in _users' changes, in its own time: the load waits for all.
  private void awaitPeruserDatabases() {
    List<String> expected = tenants.stream().map(Tenant::database).toList();
    long start = System.nanoTime();
    long lastSaid = start;
    while (true) {
      CouchReply reply = admin.exchange("GET", "/_all_dbs?start_key=%22" + PERUSER_PREFIX + "%22&end_key=%22"
          + PERUSER_PREFIX + "%EF%BF%B0%22", "");
      List<String> found = new ArrayList<>();
      ReplyJson.of(reply.body()).forEach(name -> found.add(name.asText()));
      long made = expected.stream().filter(new HashSet<>(found)::contains).count();
      if (made == expected.size()) {
        Console.say(String.format(Locale.ROOT, "tenants: couch_peruser made the %,d users' databases in %.1f s",
            made, (System.nanoTime() - start) / 1e9));
        return;
      }
      long now = System.nanoTime();
      if (now - start > PERUSER_WAIT.toNanos()) {
        throw new TenantsException(String.format(Locale.ROOT, "couch_peruser made %,d of the %,d users' databases"
            + " (%s<hex of the name>) in %d s: is [couch_peruser] enable = true taken on every node? see the node's"
            + " log", made, expected.size(), PERUSER_PREFIX, PERUSER_WAIT.toSeconds()));
      }
      if (now - lastSaid > PERUSER_PROGRESS.toNanos()) {
        Console.say(String.format(Locale.ROOT, "tenants: waiting for couch_peruser: %,d of %,d users' databases made",
            made, expected.size()));
        lastSaid = now;
      }
      pause();
    }
  }

  // couch_peruser sets a database's _security after making it; until then the database is open to every user.
  private void awaitPeruserSecurity(Tenant tenant) {
    long deadline = System.nanoTime() + PERUSER_WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      CouchReply reply = admin.exchange("GET", "/" + tenant.database() + "/_security", "");
      for (JsonNode name : ReplyJson.of(reply.body()).path("members").path("names")) {
        if (name.asText().equals(tenant.name())) {
          return;
        }
      }
      pause();
    }
    throw new TenantsException("couch_peruser never named " + tenant.name() + " a member of " + tenant.database()
        + " in " + PERUSER_WAIT.toSeconds() + " s: see the node's log");
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TenantsException("interrupted while waiting for couch_peruser");
    }
  }

  private void putOwnership(String database) {
    ObjectNode design = JSON.createObjectNode().put("validate_doc_update", VALIDATE);
    CouchReply reply = admin.exchange("PUT", "/" + database + "/" + OWNERSHIP, design.toString());
    if (reply.status() / 100 != 2) {
      throw new TenantsException("putting " + OWNERSHIP + " (its validate_doc_update) in " + database + " failed: "
          + reply.status() + " " + reply.reason());
    }
  }

  // The user's documents, each its owner's; the first one's revision kept.
  private void seed(Tenant tenant) {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    for (int i = 0; i < plan.docs(); i++) {
      String id = tenant.docId(i);
      docs.addObject().put("_id", id).put("owner", tenant.name()).put("text", RandomText.forKey(tenant.name() + ":"
          + id, DOC_SIZE));
    }
    CouchReply reply = admin.exchange("POST", "/" + tenant.database() + "/_bulk_docs", body.toString());
    JsonNode results = ReplyJson.of(reply.body());
    if (reply.status() / 100 != 2 || !results.path(0).hasNonNull("rev")) {
      throw new TenantsException("seeding " + tenant.database() + " with " + plan.docs() + " documents of "
          + tenant.name() + " failed: " + reply.status() + " " + reply.reason());
    }
    firstRevs.put(tenant.index(), results.path(0).path("rev").asText());
  }

  /**
   * @param number a seeded document's number, from 0
   * @return its id, e.g. doc00042
   */
  static String seededId(int number) {
    return String.format(Locale.ROOT, "%s%05d", SEEDED, number);
  }
}
