package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheTextDecoder;
import io.netty.handler.ssl.SslContext;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * How a {@link MemcacheClient} connects.
 *
 * @param servers the servers, keys spread over them by {@link KetamaRing}; at least one, no duplicates
 * @param connectTimeout how long a connection may take to open
 * @param requestTimeout how long a request may wait for its reply, from when it is written
 * @param sharedPool false (the default): one connection per server for each virtual user (or for each
 *     usersPerConnection users of one event loop), opened on first use; true: poolSize connections per server
 *     shared by all users
 * @param poolSize connections per server in the shared pool (ignored without it)
 * @param maxValueBytes the largest data block accepted in a reply
 * @param usersPerConnection without a shared pool: how many virtual users of one event loop share each connection,
 *     so that up to that many requests are in flight on it (as with memtier's --pipeline); 1, the default, gives
 *     each its own
 * @param reconnectEvery without a shared pool: a connection is closed and another opened once it carried this many
 *     requests, at the first request after that finds it idle (memtier's --reconnect-interval); 0, the default, never
 * @param tls TLS on each connection (memcached 1.6 with -Z), a client context of Netty's with its trust, client
 *     certificate and host name check; empty, the default, for plain text
 */
public record MemcacheClientConfig(
    List<InetSocketAddress> servers,
    Duration connectTimeout,
    Duration requestTimeout,
    boolean sharedPool,
    int poolSize,
    int maxValueBytes,
    int usersPerConnection,
    int reconnectEvery,
    Optional<SslContext> tls) {

  /** Default connect and request timeouts. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /** Checks the settings and copies the server list. */
  public MemcacheClientConfig {
    servers = List.copyOf(servers);
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("no memcache server");
    }
    if (new HashSet<>(servers).size() != servers.size()) {
      throw new IllegalArgumentException("a memcache server is listed twice: " + servers);
    }
    requirePositive(connectTimeout, "connectTimeout");
    requirePositive(requestTimeout, "requestTimeout");
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize: " + poolSize + " (expected: >= 1)");
    }
    if (maxValueBytes < 0 || maxValueBytes > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("maxValueBytes: " + maxValueBytes);
    }
    if (reconnectEvery < 0 || reconnectEvery > 0 && sharedPool) {
      throw new IllegalArgumentException("reconnectEvery: " + reconnectEvery + " (expected: >= 0, 0 with a shared"
          + " pool)");
    }
    if (usersPerConnection < 1) {
      throw new IllegalArgumentException("usersPerConnection: " + usersPerConnection + " (expected: >= 1)");
    }
  }

  /**
   * The defaults: 5 s timeouts, one connection per virtual user per server, values up to 64 MB.
   *
   * @param servers the servers
   * @return the configuration
   */
  public static MemcacheClientConfig of(List<InetSocketAddress> servers) {
    return new MemcacheClientConfig(servers, DEFAULT_TIMEOUT, DEFAULT_TIMEOUT, false, 1,
        MemcacheTextDecoder.DEFAULT_MAX_VALUE_BYTES, 1, 0, Optional.empty());
  }

  /**
   * @param connect the connect timeout
   * @param request the request timeout
   * @return a copy with these timeouts
   */
  public MemcacheClientConfig withTimeouts(Duration connect, Duration request) {
    return new MemcacheClientConfig(servers, connect, request, sharedPool, poolSize, maxValueBytes, usersPerConnection,
        reconnectEvery, tls);
  }

  /**
   * @param size connections per server, shared by all virtual users
   * @return a copy that uses a shared pool
   */
  public MemcacheClientConfig withSharedPool(int size) {
    return new MemcacheClientConfig(servers, connectTimeout, requestTimeout, true, size, maxValueBytes,
        usersPerConnection, reconnectEvery, tls);
  }

  /**
   * @param bytes the largest data block accepted in a reply
   * @return a copy with this limit
   */
  public MemcacheClientConfig withMaxValueBytes(int bytes) {
    return new MemcacheClientConfig(servers, connectTimeout, requestTimeout, sharedPool, poolSize, bytes,
        usersPerConnection, reconnectEvery, tls);
  }

  /**
   * @param users how many virtual users share each connection, so up to that many requests are in flight on it
   * @return a copy with this sharing
   */
  public MemcacheClientConfig withUsersPerConnection(int users) {
    return new MemcacheClientConfig(servers, connectTimeout, requestTimeout, sharedPool, poolSize, maxValueBytes,
        users, reconnectEvery, tls);
  }

  /**
   * @param requests how many requests a connection carries before it is closed and another opened; 0 for never
   * @return a copy with this reconnection
   */
  public MemcacheClientConfig withReconnectEvery(int requests) {
    return new MemcacheClientConfig(servers, connectTimeout, requestTimeout, sharedPool, poolSize, maxValueBytes,
        usersPerConnection, requests, tls);
  }

  /**
   * @param context a client TLS context: what it trusts, the client certificate it shows, the host name check
   * @return a copy that speaks TLS on each connection
   */
  public MemcacheClientConfig withTls(SslContext context) {
    return new MemcacheClientConfig(servers, connectTimeout, requestTimeout, sharedPool, poolSize, maxValueBytes,
        usersPerConnection, reconnectEvery, Optional.of(context));
  }

  private static void requirePositive(Duration duration, String name) {
    if (duration == null || duration.toMillis() < 1 || duration.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + ": " + duration + " (expected: >= 1 ms)");
    }
  }
}
