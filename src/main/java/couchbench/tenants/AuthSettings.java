package couchbench.tenants;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.ReplyJson;
import couchbench.targets.CouchTarget;
import couchbench.tenants.TenantsPlan.Auth;
import couchbench.variants.ConfigGuard;
import couchbench.variants.ConfigKey;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What jwt and proxy among -Dauth's methods set on CouchDB for the run, taken and restored by the run's
 * {@link ConfigGuard} in one go: their handlers added in front of {@code [chttpd] authentication_handlers}, and a
 * secret drawn for the run, which is never printed nor written anywhere (the guard's restore file keeps the server's
 * originals, not it): the JWT signing key in {@code [jwt_keys] hmac:_default}, and the proxy's {@code [chttpd_auth]
 * secret} with {@code proxy_use_secret = true}.
 * CouchDB 3.5 reads the handlers only as its HTTP listener starts, so the run also changes {@code [chttpd]
 * server_options} (the same options, written with one more space), a change that restarts the listener, and restores
 * it last.
 */
final class AuthSettings {

  /** The handlers CouchDB tries in turn on every request. */
  static final ConfigKey HANDLERS = new ConfigKey("chttpd", "authentication_handlers");

  /** The HTTP listener's options: a change of them restarts it, and the handlers are read again. */
  static final ConfigKey SERVER_OPTIONS = new ConfigKey("chttpd", "server_options");

  /** The key of HS256 tokens without a {@code kid}, base64. */
  static final ConfigKey JWT_KEY = new ConfigKey("jwt_keys", "hmac:_default");

  /** The secret proxy tokens are made with (also the key of CouchDB's cookies: those made before the run lapse). */
  static final ConfigKey SECRET = new ConfigKey("chttpd_auth", "secret");

  /** Whether a proxy's request must carry the token. */
  static final ConfigKey PROXY_USE_SECRET = new ConfigKey("chttpd_auth", "proxy_use_secret");

  /** The role the proxy names for every user; no database's _security names it. */
  static final String PROXY_ROLE = "couchbench_tenant";

  // CouchDB 3.5's built-in values where the server has none of its own (chttpd.erl and default.ini).
  private static final String DEFAULT_HANDLERS = "{chttpd_auth, cookie_authentication_handler}, {chttpd_auth,"
      + " default_authentication_handler}";
  private static final String DEFAULT_SERVER_OPTIONS = "[{recbuf, undefined}, {acceptor_pool_size, 32}, {max, 65536}]";
  private static final Duration HANDLERS_TIMEOUT = Duration.ofSeconds(15);
  private static final SecureRandom RANDOM = new SecureRandom();

  // The run's methods that CouchDB must be set up for, in -Dauth's order.
  private final List<Auth> onServer;
  private final byte[] secret = new byte[32];

  /** @param auths the run's -Dauth methods */
  AuthSettings(List<Auth> auths) {
    this.onServer = auths.stream().filter(auth -> auth == Auth.JWT || auth == Auth.PROXY).toList();
    RANDOM.nextBytes(secret);
  }

  /** @return whether the run changes CouchDB's authentication (jwt and proxy do) */
  boolean changesServer() {
    return !onServer.isEmpty();
  }

  /** @return the settings it changes, the listener's options last: restored last, they restart it once all are back */
  Set<ConfigKey> keys() {
    Set<ConfigKey> keys = new LinkedHashSet<>(List.of(HANDLERS));
    if (onServer.contains(Auth.JWT)) {
      keys.add(JWT_KEY);
    }
    if (onServer.contains(Auth.PROXY)) {
      keys.addAll(List.of(SECRET, PROXY_USE_SECRET));
    }
    keys.add(SERVER_OPTIONS);
    return keys;
  }

  /**
   * @param settings the run's guard, which took {@link #keys}
   * @param couchdb the server
   * @return the handlers, the secrets and the listener's options for the run, to be applied with the run's other
   *     settings in one go (a guard's apply puts back what it is not given)
   */
  Map<ConfigKey, String> values(ConfigGuard settings, CouchTarget couchdb) {
    Map<ConfigKey, String> values = new LinkedHashMap<>();
    StringBuilder handlers = new StringBuilder();
    handlerNames().forEach(name -> handlers.append("{chttpd_auth, ").append(name).append("_authentication_handler}, "));
    values.put(HANDLERS, handlers + settings.original(couchdb, HANDLERS).orElse(DEFAULT_HANDLERS));
    if (onServer.contains(Auth.JWT)) {
      values.put(JWT_KEY, Base64.getEncoder().encodeToString(secret));
    }
    if (onServer.contains(Auth.PROXY)) {
      values.put(SECRET, proxySecret());
      values.put(PROXY_USE_SECRET, "true");
    }
    String options = settings.original(couchdb, SERVER_OPTIONS).orElse(DEFAULT_SERVER_OPTIONS);
    // A space after the list's bracket: the same options, a text CouchDB keeps (it strips a value's ends only).
    values.put(SERVER_OPTIONS, options.replaceFirst("\\[", "[ "));
    return values;
  }

  /**
   * Waits, once {@link #values} are applied, until the server names every handler of the run in {@code GET
   * /_session}.
   *
   * @param couchdb the server
   * @throws TenantsException when they are not all named within 15 s
   */
  void awaitHandler(CouchTarget couchdb) {
    CouchDbClient admin = new CouchDbClient(couchdb);
    long deadline = System.nanoTime() + HANDLERS_TIMEOUT.toNanos();
    JsonNode handlers = null;
    while (System.nanoTime() < deadline) {
      try {
        handlers = ReplyJson.of(admin.get("/_session").body()).path("info").path("authentication_handlers");
        Set<String> named = new HashSet<>();
        handlers.forEach(handler -> named.add(handler.asText()));
        if (named.containsAll(handlerNames())) {
          return;
        }
      } catch (RuntimeException restarting) {
        // the listener is restarting: asked again below
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new TenantsException(couchdb.describe() + " does not name " + String.join(" and ", handlerNames())
        + " among its authentication handlers in GET /_session (" + handlers + ") " + HANDLERS_TIMEOUT.toSeconds()
        + " s after " + HANDLERS + " and " + SERVER_OPTIONS + " were set for -Dauth's " + String.join(" and ",
        handlerNames()) + ": check that it is Apache CouchDB 3.x"
        + " and that its log shows no error at the listener's restart");
  }

  /** @return the handlers the run adds, as {@code GET /_session} names them: "jwt", "proxy" or both */
  List<String> handlerNames() {
    return onServer.stream().map(Auth::word).toList();
  }

  /**
   * @param tenant a user
   * @param expires when the token lapses
   * @return its token, signed with the run's key
   */
  String jwt(Tenant tenant, Instant expires) {
    return TenantTokens.jwt(secret, tenant.name(), expires);
  }

  /**
   * @param tenant a user
   * @param expires when the token lapses
   * @return a token of its, signed with a key of the run's key's length drawn apart
   */
  String jwtOfWrongKey(Tenant tenant, Instant expires) {
    byte[] key = new byte[secret.length];
    RANDOM.nextBytes(key);
    return TenantTokens.jwt(key, tenant.name(), expires);
  }

  /**
   * @param tenant a user
   * @return its {@code X-Auth-CouchDB-Token}
   */
  String proxyToken(Tenant tenant) {
    return TenantTokens.proxyToken(proxySecret(), tenant.name());
  }

  /**
   * @param tenant a user
   * @return a token of its name made with another secret
   */
  String wrongProxyToken(Tenant tenant) {
    return TenantTokens.proxyToken(proxySecret() + "-wrong", tenant.name());
  }

  private String proxySecret() {
    return HexFormat.of().formatHex(secret);
  }
}
