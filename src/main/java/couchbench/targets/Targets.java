package couchbench.targets;

import couchbench.process.Executables;
import couchbench.process.FreePort;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Resolves where the servers of a run are: the ones the settings name, else the ones on the default ports (unless
 * -Dcouchbench.defaultPorts=false), else local ones started for the run. Each resolution prints one line saying what
 * it uses.
 */
public final class Targets {

  static final String DEFAULT_COUCHDB = "http://" + FreePort.LOOPBACK + ":5984";
  static final String DEFAULT_MEMCACHE = FreePort.LOOPBACK + ":21201"; // MemcacheDB's default port
  private static final String MEMCACHE_MEMORY = "memcache.memory";

  private Targets() {}

  /**
   * -Dcouchdb.url if given (each node of its list checked to answer as CouchDB, several to be one cluster); else a CouchDB on 127.0.0.1:5984; else, when nothing
   * listens there or -Dcouchbench.defaultPorts=false, a local pouchdb-server started for this run and stopped when
   * the JVM exits.
   *
   * @param settings the run's settings
   * @return the CouchDB target
   * @throws TargetException when the target (or a node of it) does not answer as CouchDB, rejects the login, or cannot
   *     be started, or when the nodes are not one cluster
   */
  public static CouchTarget couchdb(Settings settings) {
    return couchdb(settings, DEFAULT_COUCHDB);
  }

  /** Same, with another default URL, for tests. */
  static CouchTarget couchdb(Settings settings, String defaultUrl) {
    TargetSettings targets = new TargetSettings(settings);
    Optional<Credentials> credentials = targets.credentials();
    Optional<String> given = targets.couchdbUrl();
    DatabaseOptions options = DatabaseOptions.from(settings);
    CouchWaits waits = CouchWaits.from(settings);
    boolean probeDefault = targets.defaultPorts();
    if (given.isEmpty() && !probeDefault) {
      return startPouchDb(settings, credentials.isPresent(), options, waits);
    }
    List<String> urls = given.map(u -> CouchUrl.parseAll(u).stream().map(CouchUrl::baseUrl).toList())
        .orElse(List.of(defaultUrl));
    String url = urls.get(0);
    boolean perRequest = spreadPerRequest(settings, urls.size());
    ServerTls tls = ServerTls.couchdb(settings, url);
    tls.warnWhenInsecure(urls);
    if (url.startsWith("https://")) {
      tls.installForGatling();
    }
    String login = credentials.map(c -> " as " + c.user()).orElse("");
    if (given.isPresent()) {
      List<String> answers = new ArrayList<>();
      for (String node : urls) {
        answers.add(checkGivenNode(node, credentials, tls));
      }
      List<String> members = urls.size() > 1 ? ClusterMembership.check(urls, credentials, tls,
          answers.stream().allMatch(answer -> answer.startsWith(CouchProbe.POUCHDB))) : List.of();
      CouchTarget found = new CouchTarget(url, credentials, false, tls, new CouchNodes(urls, perRequest, members),
          options, waits);
      String what = answers.stream().distinct().count() == 1 ? answers.get(0) : String.join(", ", answers);
      return use(found, "using " + what + " at " + String.join(", ", urls) + login + " (from -Dcouchdb.url"
          + (urls.size() > 1 ? "; " + found.nodes().describeSpread() : "") + ")");
    }
    Probe probe = CouchProbe.probe(url, credentials, tls);
    return switch (probe.outcome()) {
      case ANSWERS -> use(new CouchTarget(url, credentials, false, tls, CouchNodes.single(url), options,
          waits), "using " + probe.detail() + " at " + url + login
          + " (found on the default port; -Dcouchdb.url picks another)");
      case REFUSED -> startPouchDb(settings, credentials.isPresent(), options, waits);
      case NO_ANSWER -> throw new TargetException("something at " + url + " does not answer as CouchDB ("
          + probe.detail() + "): stop it or set -Dcouchdb.url");
      case NOT_IT -> throw new TargetException("something at " + url + " answers but is not CouchDB ("
          + probe.detail() + "): stop it or set -Dcouchdb.url");
      case UNAUTHORIZED -> throw unauthorized(url, probe, credentials);
      case TLS_FAILED -> throw new TargetException(probe.detail());
    };
  }

  /** -Dcouchdb.spread: user (the default) or request; read only when there are several nodes to spread over. */
  private static boolean spreadPerRequest(Settings settings, int nodes) {
    if (nodes == 1) {
      return false;
    }
    return switch (settings.get(CouchNodes.SPREAD, "user")) {
      case "user" -> false;
      case "request" -> true;
      default -> throw new SettingsException("-D" + CouchNodes.SPREAD + "=" + settings.value(CouchNodes.SPREAD).get()
          + " is neither user nor request (user: each virtual user pinned to one node; request: each request to the"
          + " next node)");
    };
  }

  /** A node of -Dcouchdb.url, which must answer as CouchDB: what it is (e.g. "CouchDB 3.5.0"), else one line. */
  private static String checkGivenNode(String url, Optional<Credentials> credentials, ServerTls tls) {
    Probe probe = CouchProbe.probe(url, credentials, tls);
    return switch (probe.outcome()) {
      case ANSWERS -> probe.detail();
      case REFUSED -> throw new TargetException("CouchDB at " + url
          + " does not answer (connection refused): start it or set -Dcouchdb.url");
      case NO_ANSWER -> throw new TargetException("CouchDB at " + url + " does not answer (" + probe.detail()
          + "): start it or set -Dcouchdb.url");
      case NOT_IT -> throw new TargetException("something at " + url + " answers but is not CouchDB ("
          + probe.detail() + "): set -Dcouchdb.url to your CouchDB");
      case UNAUTHORIZED -> throw unauthorized(url, probe, credentials);
      case TLS_FAILED -> throw new TargetException(probe.detail());
    };
  }

  /**
   * Each server of -Dmemcache.servers if given (checked to answer "version"); else 127.0.0.1:21201 if it answers;
   * else, when nothing listens there or -Dcouchbench.defaultPorts=false, a local memcached from the PATH, stopped
   * when the JVM exits.
   *
   * @param settings the run's settings
   * @return the memcache target
   * @throws TargetException when a server does not answer as memcache, or memcached cannot be started
   */
  public static MemcacheTarget memcache(Settings settings) {
    return memcache(settings, DEFAULT_MEMCACHE);
  }

  /** Same, with another default server, for tests. */
  static MemcacheTarget memcache(Settings settings, String defaultServer) {
    TargetSettings targets = new TargetSettings(settings);
    Optional<List<String>> given = targets.memcacheServers();
    boolean probeDefault = targets.defaultPorts();
    Optional<ServerTls> tls = ServerTls.memcache(settings);
    if (tls.isPresent() && given.isEmpty()) {
      throw new SettingsException("-D" + ServerTls.MEMCACHE_TLS + "=true needs -Dmemcache.servers: the memcached"
          + " couchbench starts or finds on the default port speaks plain text; start yours with -Z and name it");
    }
    if (given.isPresent()) {
      warnOfMemoryNotApplied(settings, String.join(", ", given.get()));
      tls.ifPresent(on -> on.warnWhenInsecure(given.get()));
      List<String> answers = new ArrayList<>();
      for (String server : given.get()) {
        answers.add(server + " (" + checkGivenServer(server, tls) + ")");
      }
      return use(new MemcacheTarget(given.get(), false, tls), "using memcache at " + String.join(", ", answers)
          + tls.map(on -> " over TLS, " + on.describe()).orElse("") + " (from -Dmemcache.servers)");
    }
    if (!probeDefault) {
      return startMemcached(settings);
    }
    Probe probe = MemcacheProbe.probe(defaultServer);
    if (probe.answers()) {
      warnOfMemoryNotApplied(settings, defaultServer);
    }
    return switch (probe.outcome()) {
      case ANSWERS -> use(new MemcacheTarget(List.of(defaultServer), false), "using memcache at " + defaultServer
          + " (" + probe.detail() + ", found on the default port; -Dmemcache.servers picks others)");
      case REFUSED -> startMemcached(settings);
      default -> throw new TargetException("something at " + defaultServer + " answers but is not memcache ("
          + probe.detail() + "): stop it or set -Dmemcache.servers");
    };
  }

  private static String checkGivenServer(String server, Optional<ServerTls> tls) {
    Probe probe = MemcacheProbe.probe(server, tls);
    return switch (probe.outcome()) {
      case ANSWERS -> probe.detail();
      case NOT_IT -> throw new TargetException("something at " + server + " answers but is not memcache ("
          + probe.detail() + "): fix -Dmemcache.servers");
      case TLS_FAILED -> throw new TargetException(probe.detail());
      default -> throw new TargetException("memcache server " + server + " does not answer (" + probe.detail()
          + "): start it or fix -Dmemcache.servers");
    };
  }

  private static CouchTarget startPouchDb(Settings settings, boolean loginGiven, DatabaseOptions options,
      CouchWaits waits) {
    Optional<PouchDbServer> earlier = LocalServers.find(PouchDbServer.class);
    PouchDbServer server = earlier.orElseGet(() -> LocalServers.stopAtExit(PouchDbServer.start(searchPath(settings))));
    // pouchdb-server has no users and rejects any login sent to it: the local target gets none.
    Console.say((earlier.isPresent() ? "using the local pouchdb-server " : "started local pouchdb-server ")
        + PouchDbInstall.version() + " at " + server.url() + " (data in " + server.dataDirectory()
        + (loginGiven ? ", no login needed" : "") + "), it stops when the run ends");
    return new CouchTarget(server.url(), Optional.empty(), true, ServerTls.COUCHDB_DEFAULT, CouchNodes.single(server.url()),
        options, waits);
  }

  // -Dmemcache.memory is the -m of a memcached couchbench starts; a server found or given keeps its own.
  private static void warnOfMemoryNotApplied(Settings settings, String servers) {
    if (settings.value(MEMCACHE_MEMORY).isPresent()) {
      Console.warn("-D" + MEMCACHE_MEMORY + " sizes a memcached couchbench starts, not the memcache at " + servers
          + ", which keeps its own memory (its -m): leave -D" + MEMCACHE_MEMORY + " out, or restart it with -m");
    }
  }

  private static MemcacheTarget startMemcached(Settings settings) {
    Optional<MemcachedServer> earlier = LocalServers.find(MemcachedServer.class);
    int memoryMb = settings.intValue(MEMCACHE_MEMORY, MemcachedServer.DEFAULT_MEMORY_MB, 1);
    MemcachedServer server =
        earlier.orElseGet(() -> LocalServers.stopAtExit(MemcachedServer.start(searchPath(settings), memoryMb)));
    Console.say((earlier.isPresent() ? "using the local memcached " : "started local memcached ") + server.version()
        + " at " + server.address() + " with " + server.memoryMb() + " MB (-Dmemcache.memory), it stops when the run"
        + " ends");
    return new MemcacheTarget(List.of(server.address()), true);
  }

  private static TargetException unauthorized(String url, Probe probe, Optional<Credentials> credentials) {
    return credentials.isPresent()
        ? new TargetException("CouchDB at " + url + " rejects the login of user " + credentials.get().user() + " ("
            + probe.detail() + "): check -Dcouchdb.user and -Dcouchdb.password, or the user:password in -Dcouchdb.url")
        : new TargetException("CouchDB at " + url + " needs a login (" + probe.detail()
            + "): set -Dcouchdb.user and -Dcouchdb.password, or use -Dcouchdb.url=http://user:password@host:5984");
  }

  // The settings' PATH when they carry one (tests pass their own); this JVM's otherwise.
  private static String searchPath(Settings settings) {
    return settings.environmentValue("PATH").orElseGet(Executables::systemPath);
  }

  private static <T> T use(T target, String message) {
    Console.say(message);
    return target;
  }
}
