package couchbench.targets;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The settings that say where a run's servers are and how it logs in to CouchDB, read from the run's
 * {@link Settings}: -Dcouchdb.url, the CouchDB login, -Dmemcache.servers and -Dcouchbench.defaultPorts. The TLS
 * settings, CouchDB's and memcache's, are read by {@link ServerTls}.
 */
public final class TargetSettings {

  /**
   * The property that switches the default-port probe on or off: {@code -Dcouchbench.defaultPorts=false} makes a run
   * without -Dcouchdb.url (or -Dmemcache.servers) start its local server at once, without looking at 127.0.0.1:5984
   * (or 21201). The test suite passes it to every run, so that it never touches a server a user runs there.
   */
  public static final String DEFAULT_PORTS = "couchbench.defaultPorts";

  /** The environment variable the CouchDB password falls back to, which keeps it out of the process list. */
  static final String PASSWORD_VARIABLE = "COUCHDB_PASSWORD";

  private static final String COUCHDB_URL = "couchdb.url";
  private static final String MEMCACHE_SERVERS = "memcache.servers";

  private final Settings settings;

  /** @param settings the run's settings, where the target settings are read */
  public TargetSettings(Settings settings) {
    this.settings = settings;
  }

  /** @return -Dcouchdb.url as given, possibly with user:password; empty when not set */
  public Optional<String> couchdbUrl() {
    return settings.value(COUCHDB_URL);
  }

  /**
   * The CouchDB login: -Dcouchdb.user and -Dcouchdb.password win over the user-info of -Dcouchdb.url; the password
   * falls back to the COUCHDB_PASSWORD environment variable.
   *
   * @return the credentials, empty when no user is set anywhere
   * @throws SettingsException when a user is set but no password is, or -Dcouchdb.url is not an http(s) URL
   */
  public Optional<Credentials> credentials() {
    return CredentialSource.resolve(settings, couchdbUrl()).map(CredentialSource::credentials);
  }

  /**
   * @return -Dmemcache.servers split at commas, each "host:port"; empty when not set
   * @throws SettingsException when one of them is not host:port
   */
  public Optional<List<String>> memcacheServers() {
    return settings.value(MEMCACHE_SERVERS).map(TargetSettings::servers);
  }

  /**
   * @return whether a run without -Dcouchdb.url or -Dmemcache.servers first looks for a server on the default port
   *     (-Dcouchbench.defaultPorts, true unless set to false)
   * @throws SettingsException when it is neither true nor false
   */
  public boolean defaultPorts() {
    return settings.booleanValue(DEFAULT_PORTS, true);
  }

  /**
   * @return the paragraph a run starts with: the CouchDB and memcache settings in force, any password shown as
   *     {@link Settings#MASK}; a setting that cannot be used is shown as given, and refused when the targets are
   *     resolved
   */
  public String describe() {
    boolean probe;
    try {
      probe = defaultPorts();
    } catch (SettingsException e) {
      probe = true; // reported when the targets are resolved, after this line
    }
    String couch = couchdbUrl().map(url -> COUCHDB_URL + "=" + CouchUrl.maskAll(url))
        .orElse(COUCHDB_URL + " not set (" + (probe ? "CouchDB at http://127.0.0.1:5984 if one answers, else " : "")
            + "a local pouchdb-server)");
    String login = CredentialSource.resolveLeniently(settings, couchdbUrl()).map(CredentialSource::describe)
        .orElse("no CouchDB login");
    String memcache = settings.value(MEMCACHE_SERVERS).map(servers -> MEMCACHE_SERVERS + "=" + servers)
        .orElse(MEMCACHE_SERVERS + " not set (" + (probe ? "127.0.0.1:21201 if it answers, else " : "")
            + "a local memcached)");
    String ports = probe ? "" : "; " + DEFAULT_PORTS + "=false: the default ports are not looked at";
    String couchTls = ServerTls.describeSettings(settings, TlsServer.COUCHDB).map(given -> ", " + given).orElse("");
    String memcacheTls = ServerTls.describeSettings(settings, TlsServer.MEMCACHE).map(given -> ", " + given)
        .orElse("");
    return "settings: " + couch + ", " + login + couchTls + "; " + memcache + memcacheTls + ports + ".";
  }

  private static List<String> servers(String raw) {
    List<String> servers = new ArrayList<>();
    for (String server : raw.split(",", -1)) {
      try {
        MemcacheTarget.address(server.trim());
      } catch (IllegalArgumentException e) {
        throw new SettingsException("-D" + MEMCACHE_SERVERS + "=" + raw
            + " is not a list of host:port (expected e.g. 127.0.0.1:21201,127.0.0.1:11211)");
      }
      servers.add(server.trim());
    }
    return List.copyOf(servers);
  }
}
