package couchbench.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchReply;
import couchbench.couchdb.ReplyJson;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.variants.ConfigGuard;
import couchbench.variants.ConfigKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The server's side of a Tenants run before its users: the login checked to be a server admin's on Apache CouchDB,
 * then every setting the run changes taken in one {@link ConfigGuard} (their values on every node kept in a restore
 * file, put back after the run, on failure and on Ctrl-C) and set in one go: [chttpd_auth] iterations, [couchdb]
 * max_dbs_open, [chttpd_auth] timeout (-DcookieTimeout), couch_peruser's (-Ddatabases=peruser) and the
 * {@link AuthSettings} of jwt and proxy among -Dauth's methods.
 */
final class TenantsSettings {

  /** CouchDB's PBKDF2 iterations for passwords hashed from now on; 600,000 by default in CouchDB 3.5. */
  static final ConfigKey ITERATIONS = new ConfigKey("chttpd_auth", "iterations");

  /** How long an AuthSession cookie lasts, in seconds; CouchDB renews it in a reply once a tenth of it has passed. */
  static final ConfigKey COOKIE_TIMEOUT = new ConfigKey("chttpd_auth", "timeout");

  /** How many databases CouchDB keeps open: opening one more closes an idle one, or is refused when none is idle. */
  static final ConfigKey MAX_DBS_OPEN = new ConfigKey("couchdb", "max_dbs_open");

  /**
   * With -Ddatabases=peruser, set for the run: couch_peruser makes each user's database, deletes it with the user, and
   * names it as the run expects.
   */
  static final Map<ConfigKey, String> PERUSER = peruser();

  private final TenantsPlan plan;
  private final CouchTarget couchdb;
  private final AuthSettings authSettings;
  private ConfigGuard settings;
  private String iterations = "not read";
  private String maxDbsOpen = "not read";
  private long openAtStart = -1;

  /**
   * @param plan the run's plan
   * @param couchdb the CouchDB server, with a server admin's login
   * @param authSettings what the run's methods set on the server
   */
  TenantsSettings(TenantsPlan plan, CouchTarget couchdb, AuthSettings authSettings) {
    this.plan = plan;
    this.couchdb = couchdb;
    this.authSettings = authSettings;
  }

  /**
   * Checks the server, takes the run's settings and sets them, then waits for jwt's and proxy's handlers.
   *
   * @param restoreAtExit called once the settings are taken, so that they are put back however the run ends
   * @throws TenantsException for a login that is not an admin's, a server without _config, handlers never named
   */
  void apply(Runnable restoreAtExit) {
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
    restoreAtExit.run();
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
      Console.say("tenants: -Dauth's " + String.join(" and ", authSettings.handlerNames()) + ": " + String.join(", ",
          authSettings.keys().stream().map(ConfigKey::toString).toList()) + " set for the run (the secrets drawn for"
          + " it, never shown); CouchDB names " + String.join(" and ", authSettings.handlerNames()) + " among its"
          + " authentication handlers");
    }
    plan.maxDbsOpen().ifPresent(limit -> openAtStart = openDatabasesAbove(admin, limit));
  }

  /** Puts back every setting taken, if any were. */
  void restore() {
    if (settings != null) {
      settings.restore();
    }
  }

  /** @return the PBKDF2 iterations in words, and where they came from */
  String iterations() {
    return iterations;
  }

  /** @return max_dbs_open in words, and where it came from */
  String maxDbsOpen() {
    return maxDbsOpen;
  }

  /** @return the databases (shards) open as -DmaxDbsOpen was set; -1 when not read */
  long openAtStart() {
    return openAtStart;
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
}
