package couchbench.targets;

import couchbench.memcache.MemcacheDsl;
import couchbench.memcache.MemcacheProtocolBuilder;
import couchbench.memcache.client.MemcacheClientConfig;
import couchbench.memcache.client.ServerAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * Where the memcache servers are, after resolution, and how they are spoken to.
 *
 * @param servers "host:port" of each server, in the order given
 * @param startedLocally true when couchbench started a memcached for this run
 * @param tls -Dmemcache.tls=true: TLS, with the run's trust; empty for plain text
 */
public record MemcacheTarget(List<String> servers, boolean startedLocally, Optional<ServerTls> tls) {

  public MemcacheTarget {
    servers = List.copyOf(servers);
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("a memcache target needs at least one server");
    }
    servers.forEach(MemcacheTarget::address);
  }

  /** Servers spoken to in plain text, as memcache is by default. */
  public MemcacheTarget(List<String> servers, boolean startedLocally) {
    this(servers, startedLocally, Optional.empty());
  }

  /** @return how a client connects to these servers: the defaults, over TLS when the target speaks it */
  public MemcacheClientConfig clientConfig() {
    MemcacheClientConfig plain = MemcacheClientConfig.of(addresses());
    return tls.map(given -> plain.withTls(given.nettyContext())).orElse(plain);
  }

  /** @return the Gatling protocol of these servers, over TLS when the target speaks it; the load adds its own */
  public MemcacheProtocolBuilder protocol() {
    MemcacheProtocolBuilder plain = MemcacheDsl.memcache.servers(servers);
    return tls.map(given -> plain.tls(given.nettyContext())).orElse(plain);
  }

  /** @return the servers as unresolved socket addresses, in the same order */
  public List<InetSocketAddress> addresses() {
    return servers.stream().map(MemcacheTarget::address).toList();
  }

  /**
   * The local memcached behind this target, when couchbench started it for this run.
   *
   * @return its pid; empty for servers couchbench did not start
   */
  public Optional<LocalServer> local() {
    return startedLocally
        ? LocalServers.find(MemcachedServer.class)
            .filter(server -> servers.contains(server.address()))
            .map(MemcachedServer::local)
        : Optional.empty();
  }

  /**
   * @return e.g. "memcache at db1:21201, db2:21201", "memcache at db1:21201 over TLS (certificate and host name
   *     checked against ca.pem; BoringSSL)" or "local memcached at 127.0.0.1:41234 (started for this run)"
   */
  public String describe() {
    return startedLocally
        ? "local memcached at " + servers.get(0) + " (started for this run)"
        : "memcache at " + String.join(", ", servers) + tls.map(given -> " over TLS (" + given.describe() + "; "
            + ServerTls.nettyEngineName() + ")")
            .orElse("");
  }

  /**
   * Empties the cache in the middle of a run: the local memcached this run started is stopped and started again on the
   * same port (a restart, as an operator's: the clients' connections drop, and it comes back empty); servers the run
   * did not start are sent flush_all instead (their items invalidated, the server and its connections kept).
   *
   * @return what was done, e.g. "local memcached at 127.0.0.1:41234 restarted (pid 100, now 107), empty" or
   *     "flush_all sent to memcache at 127.0.0.1:21201 (not started by this run): OK"
   * @throws TargetException when the restarted memcached does not answer, or a server does not answer flush_all OK
   */
  public String emptyCache() {
    Optional<MemcachedServer> started = startedLocally ? LocalServers.find(MemcachedServer.class)
        .filter(server -> servers.contains(server.address())) : Optional.empty();
    if (started.isPresent()) {
      MemcachedServer restarted = started.get().restart();
      LocalServers.replace(started.get(), restarted);
      return "local memcached at " + restarted.address() + " restarted (pid " + started.get().pid() + ", now "
          + restarted.pid() + "), empty";
    }
    for (String server : servers) {
      String reply = MemcacheProbe.reply(server, tls, "flush_all");
      if (!reply.equals("OK")) {
        throw new TargetException("flush_all to memcache server " + server + " got " + reply + ", not OK");
      }
    }
    return "flush_all sent to memcache at " + String.join(", ", servers) + " (not started by this run): OK";
  }

  /**
   * Asks each server "mn", the meta protocol's no-op.
   *
   * @return for each server that does not answer MN, e.g. "memcache server db1:21201 answers ERROR to mn"; empty when
   *     every server speaks the meta protocol
   */
  public List<String> withoutMetaProtocol() {
    return servers.stream()
        .map(server -> new String[] {server, MemcacheProbe.metaNoop(server, tls)})
        .filter(reply -> !reply[1].equals("MN"))
        .map(reply -> "memcache server " + reply[0] + " answers " + reply[1] + " to mn")
        .toList();
  }

  /**
   * Parses "host:port" or "[v6]:port" into an unresolved address, as the memcache protocol does.
   *
   * @param server the server as a user writes it
   * @return the address, unresolved (no DNS lookup here)
   * @throws IllegalArgumentException when it is neither form
   */
  public static InetSocketAddress address(String server) {
    return ServerAddress.parse(server);
  }
}
