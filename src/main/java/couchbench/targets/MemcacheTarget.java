package couchbench.targets;

import couchbench.memcache.client.ServerAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/**
 * Where the memcache servers are, after resolution.
 *
 * @param servers "host:port" of each server, in the order given
 * @param startedLocally true when couchbench started a memcached for this run
 */
public record MemcacheTarget(List<String> servers, boolean startedLocally) {

  public MemcacheTarget {
    servers = List.copyOf(servers);
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("a memcache target needs at least one server");
    }
    servers.forEach(MemcacheTarget::address);
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

  /** @return e.g. "memcache at db1:21201, db2:21201" or "local memcached at 127.0.0.1:41234 (started for this run)" */
  public String describe() {
    return startedLocally
        ? "local memcached at " + servers.get(0) + " (started for this run)"
        : "memcache at " + String.join(", ", servers);
  }

  /**
   * Asks each server "mn", the meta protocol's no-op.
   *
   * @return for each server that does not answer MN, e.g. "memcache server db1:21201 answers ERROR to mn"; empty when
   *     every server speaks the meta protocol
   */
  public List<String> withoutMetaProtocol() {
    return servers.stream()
        .map(server -> new String[] {server, MemcacheProbe.metaNoop(server)})
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
