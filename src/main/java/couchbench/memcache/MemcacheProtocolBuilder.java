package couchbench.memcache;

import couchbench.memcache.client.MemcacheClientConfig;
import couchbench.memcache.client.ProtocolErrors;
import couchbench.memcache.client.ServerAddress;
import couchbench.memcache.internal.MemcacheProtocol;
import io.gatling.core.protocol.Protocol;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * The memcache protocol of a simulation: which servers, timeouts, connection sharing. Immutable:
 * every method returns a new builder. Start with {@code MemcacheDsl.memcache.servers(...)}.
 */
public final class MemcacheProtocolBuilder implements ProtocolBuilder {

  private final MemcacheClientConfig config;
  private final MemcacheTimings timings;
  private final ProtocolErrors tally;

  private MemcacheProtocolBuilder(MemcacheClientConfig config, MemcacheTimings timings, ProtocolErrors tally) {
    this.config = config;
    this.timings = timings;
    this.tally = tally;
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
      return addresses(servers.stream().map(ServerAddress::parse).toList());
    }

    /**
     * The servers, as socket addresses.
     *
     * @param servers one or more addresses
     * @return the next DSL step
     */
    public MemcacheProtocolBuilder addresses(List<InetSocketAddress> servers) {
      return new MemcacheProtocolBuilder(MemcacheClientConfig.of(servers), MemcacheTimings.NONE, null);
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
    return new MemcacheProtocolBuilder(config.withTimeouts(connect, request), timings, tally);
  }

  /**
   * Shares a pool of connections per server between all virtual users, instead of one connection
   * per virtual user (the default, opened on its first request, closed when it ends).
   *
   * @param connectionsPerServer the pool's size per server
   * @return a new builder
   */
  public MemcacheProtocolBuilder sharedPool(int connectionsPerServer) {
    return new MemcacheProtocolBuilder(config.withSharedPool(connectionsPerServer), timings, tally);
  }

  /**
   * Up to {@code users} virtual users share each connection (those of one Gatling event loop), so
   * up to {@code users} requests are in flight on it, as with memtier's {@code --pipeline}; each is
   * still timed and checked on its own. Give {@code users} times as many virtual users as the
   * connections wanted. 1, the default, gives each virtual user its own connection. A
   * {@link #sharedPool} shares its connections among all virtual users instead. For one virtual user
   * sending several requests at once, see {@link MemcacheActionBuilder#pipelined}.
   *
   * @param users virtual users per connection, at least 1
   * @return a new builder
   */
  public MemcacheProtocolBuilder usersPerConnection(int users) {
    return new MemcacheProtocolBuilder(config.withUsersPerConnection(users), timings, tally);
  }

  /**
   * Closes each connection and opens another once it carried {@code requests} requests, as a client pool behind a
   * proxy does (memtier's --reconnect-interval): at the first request after that which finds the connection idle, so
   * that no request in flight is cut. Not with a {@link #sharedPool}.
   *
   * @param requests requests a connection carries; 0 for never (the default)
   * @return a new builder
   */
  public MemcacheProtocolBuilder reconnectEvery(int requests) {
    return new MemcacheProtocolBuilder(config.withReconnectEvery(requests), timings, tally);
  }

  /**
   * Speaks TLS to every server (memcached 1.6 started with -Z); the handshake is part of opening a connection, and
   * timed with it. Build the context with {@code SslContextBuilder.forClient()}: its trust manager checks each
   * server's certificate, and {@code endpointIdentificationAlgorithm("HTTPS")} that it names the host given in
   * {@link Base#servers}.
   *
   * @param context a client TLS context of Netty's: what it trusts, the client certificate it shows
   * @return a new builder
   */
  public MemcacheProtocolBuilder tls(SslContext context) {
    return new MemcacheProtocolBuilder(config.withTls(context), timings, tally);
  }

  /**
   * The largest value accepted in a reply (64 MB by default; MemcacheDB has no 1 MB limit).
   *
   * @param bytes the limit
   * @return a new builder
   */
  public MemcacheProtocolBuilder maxValueBytes(int bytes) {
    return new MemcacheProtocolBuilder(config.withMaxValueBytes(bytes), timings, tally);
  }

  /**
   * Sends each request's time in nanoseconds to {@code timings} too, for figures finer than
   * Gatling's whole milliseconds.
   *
   * @param timings called once per request, as {@link MemcacheTimings} says
   * @return a new builder
   */
  public MemcacheProtocolBuilder timings(MemcacheTimings timings) {
    return new MemcacheProtocolBuilder(config, timings, tally);
  }

  /**
   * Tallies each server's connections (opened, dropped and why, opened again) and the replies no request was waiting
   * for into {@code tally}, for the run's report to read ({@link ProtocolErrors#byServer}) when it ends; by default
   * the client keeps its own.
   *
   * @param tally the tally, shared by the clients of the protocols given it
   * @return a new builder
   */
  public MemcacheProtocolBuilder connectionTally(ProtocolErrors tally) {
    return new MemcacheProtocolBuilder(config, timings, tally);
  }

  @Override
  public Protocol protocol() {
    return new MemcacheProtocol(config, timings, tally);
  }
}
