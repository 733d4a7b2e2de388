package couchbench.resources;

import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import couchbench.targets.MemcacheTarget;
import java.math.BigDecimal;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The process behind a target on this machine: the one couchbench started for the run, else whatever listens on a
 * loopback server's port ({@link PortOwner}), a CouchDB, MemcacheDB or memcached started by hand as much as one
 * started by couchbench. A server elsewhere has none here: its figures are the ones it reports itself.
 */
public final class ServerProcess {

  private ServerProcess() {}

  /**
   * @param target the CouchDB server
   * @return its process; empty for a server elsewhere, or one whose process cannot be seen
   */
  public static Optional<LocalServer> of(CouchTarget target) {
    Optional<LocalServer> started = target.local();
    if (started.isPresent()) {
      return started;
    }
    URI url = URI.create(target.baseUrl());
    int port = url.getPort() >= 0 ? url.getPort() : url.getScheme().equals("https") ? 443 : 80;
    return isLoopback(url.getHost()) ? listening(port, "") : Optional.empty();
  }

  /**
   * @param target the memcache servers
   * @return the processes of those on this machine, in the target's order; when there are several, each is named
   *     with its port, e.g. "memcachedb :21201", so that their figures stay apart
   */
  public static List<LocalServer> of(MemcacheTarget target) {
    Optional<LocalServer> started = target.local();
    if (started.isPresent()) {
      return List.of(started.get());
    }
    List<LocalServer> found = new ArrayList<>();
    for (InetSocketAddress server : target.addresses()) {
      String suffix = target.servers().size() == 1 ? "" : " :" + server.getPort();
      if (isLoopback(server.getHostString())) {
        listening(server.getPort(), suffix)
            .filter(process -> found.stream().noneMatch(known -> known.pid() == process.pid()))
            .ifPresent(found::add);
      }
    }
    return found;
  }

  /**
   * @param url a server's URL, e.g. the Nouveau server's that CouchDB is set to
   * @param name what its figures are called, e.g. "nouveau"
   * @return the process listening on its port, for a URL of this machine; empty for one elsewhere, or unseen
   */
  public static Optional<LocalServer> at(URI url, String name) {
    return isLoopback(url.getHost()) && url.getPort() > 0 ? PortOwner.of(url.getPort())
        .map(owner -> new LocalServer(name, owner.pid(), Optional.empty())) : Optional.empty();
  }

  /**
   * @param server a process of this machine
   * @return its CPU time so far, in seconds; -1 once it is gone
   */
  public static double cpuSeconds(LocalServer server) {
    return LocalProcess.cpuSeconds(server.pid()).map(BigDecimal::doubleValue).orElse(-1.0);
  }

  /**
   * @param server a process of this machine
   * @return its resident memory now, in bytes; -1 once it is gone
   */
  public static long residentBytes(LocalServer server) {
    return LocalProcess.residentBytes(server.pid(), Path.of("/proc")).map(BigDecimal::longValue).orElse(-1L);
  }

  static boolean isLoopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
  }

  private static Optional<LocalServer> listening(int port, String suffix) {
    return PortOwner.of(port).map(owner -> new LocalServer(owner.name() + suffix, owner.pid(), Optional.empty()));
  }
}
