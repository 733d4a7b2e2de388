package couchbench.memcache;

import couchbench.memcache.client.MemcacheClientConfig;
import couchbench.memcache.internal.MemcacheProtocol;
import couchbench.targets.MemcacheTarget;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.List;

/**
 * The memcache protocol of a simulation: which servers, timeouts, connection sharing. Immutable:
 * every method returns a new builder. Start with {@code MemcacheDsl.memcache.servers(...)}.
 */
public final class MemcacheProtocolBuilder implements ProtocolBuilder {

  private final MemcacheClientConfig config;

  private MemcacheProtocolBuilder(MemcacheClientConfig config) {
    this.config = config;
  }

  /** The first step: the servers are required. */
  public static final class Base {

    /** The one instance, as {@code MemcacheDsl.memcache}. */
    public static final Base INSTANCE = new Base();

    private Base() {}

    /**
     * The servers, as {@code host:port}; keys are spread over several by consistent hashing
     * (ketama), as libmemcached does.
     *
     * @param servers one or more {@code host:port}, e.g. {@code 127.0.0.1:21201}
     * @return the next DSL step
     */
    public MemcacheProtocolBuilder servers(String... servers) {
      return servers(List.of(servers));
    }

    /**
     * The servers, as {@code host:port}.
     *
     * @param servers one or more {@code host:port}
     * @return the next DSL step
     */
    public MemcacheProtocolBuilder servers(List<String> servers) {
      return new MemcacheProtocolBuilder(
          MemcacheClientConfig.of(servers.stream().map(MemcacheTarget::address).toList()));
    }
  }

  /**
   * Timeouts for opening a connection and for each reply (5 s each by default).
   *
   * @param connect connect timeout
   * @param request reply timeout, from the request's write
   * @return a new builder
   */
  public MemcacheProtocolBuilder timeouts(Duration connect, Duration request) {
    return new MemcacheProtocolBuilder(config.withTimeouts(connect, request));
  }

  /**
   * Shares a pool of connections per server between all virtual users, instead of one connection
   * per virtual user (the default, opened on its first request, closed when it ends).
   *
   * @param connectionsPerServer the pool's size per server
   * @return a new builder
   */
  public MemcacheProtocolBuilder sharedPool(int connectionsPerServer) {
    return new MemcacheProtocolBuilder(config.withSharedPool(connectionsPerServer));
  }

  /**
   * The largest value accepted in a reply (64 MB by default; MemcacheDB has no 1 MB limit).
   *
   * @param bytes the limit
   * @return a new builder
   */
  public MemcacheProtocolBuilder maxValueBytes(int bytes) {
    return new MemcacheProtocolBuilder(config.withMaxValueBytes(bytes));
  }

  @Override
  public Protocol protocol() {
    return new MemcacheProtocol(config);
  }
}
