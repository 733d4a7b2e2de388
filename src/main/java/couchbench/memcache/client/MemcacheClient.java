package couchbench.memcache.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A memcache text-protocol client on the caller's Netty event loops and channel type (Gatling's own, so that an
 * epoll loop gets epoll channels). It owns its connections, not the event loops.
 */
public final class MemcacheClient implements AutoCloseable {

  /** How long close() waits for the channels to be closed. */
  private static final long CLOSE_WAIT_SECONDS = 5;

  private final MemcacheClientConfig config;
  private final EventLoopGroup group;
  private final ChannelFactory<? extends Channel> channelFactory;
  private final KetamaRing ring;
  private final ProtocolErrors errors;
  private final Set<MemcacheConnections> open = new HashSet<>(); // guarded by this
  private final MemcacheConnections sharedPool;
  /** Per event loop, the connections that users still join, up to usersPerConnection of them; guarded by this. */
  private final Map<EventLoop, MemcacheConnections> filling = new HashMap<>();
  private boolean closed; // guarded by this

  /**
   * Creates a client; no connection is opened before the first request.
   *
   * @param config servers, timeouts, pool and limits
   * @param group the event loops (used for the shared pool; per-user connections use the loop given)
   * @param channelFactory makes client socket channels of the event loops' type
   */
  public MemcacheClient(MemcacheClientConfig config, EventLoopGroup group,
      ChannelFactory<? extends Channel> channelFactory) {
    this(config, group, channelFactory, new ProtocolErrors());
  }

  /**
   * Creates a client that tallies its servers' protocol errors and connections where it is told.
   *
   * @param config servers, timeouts, pool and limits
   * @param group the event loops (used for the shared pool; per-user connections use the loop given)
   * @param channelFactory makes client socket channels of the event loops' type
   * @param errors where the replies no request was waiting for, and the connections opened and dropped, are tallied
   */
  public MemcacheClient(MemcacheClientConfig config, EventLoopGroup group,
      ChannelFactory<? extends Channel> channelFactory, ProtocolErrors errors) {
    this.config = config;
    this.errors = errors;
    this.group = group;
    this.channelFactory = channelFactory;
    this.ring = new KetamaRing(config.servers());
    this.sharedPool = config.sharedPool()
        ? new MemcacheConnections(ring, MemcacheConnections.linkTable(config.servers(), config.poolSize(),
            (server, i) -> new ServerLink(server, group.next(), channelFactory, config, errors)), true, this::leave)
        : null;
    if (sharedPool != null) {
      open.add(sharedPool);
    }
  }

  /**
   * The connections of one virtual user: one per server, created on the user's event loop when first used. With
   * usersPerConnection U, U users of one event loop share them, so that up to U requests are in flight on each. With
   * a shared pool, the one shared set instead. Close it when the user is done: the last of its users closes it (a
   * no-op for the shared set).
   *
   * @param loop the virtual user's event loop; its replies complete there
   * @return the connections
   * @throws IllegalStateException when the client is closed
   */
  public synchronized MemcacheConnections connectionsFor(EventLoop loop) {
    if (closed) {
      throw new IllegalStateException("memcache client closed");
    }
    if (sharedPool != null) {
      return sharedPool;
    }
    MemcacheConnections connections = filling.get(loop);
    if (connections == null) {
      connections = new MemcacheConnections(ring, MemcacheConnections.linkTable(config.servers(),
          1, (server, i) -> new ServerLink(server, loop, channelFactory, config, errors)), false, this::leave);
      open.add(connections);
      filling.put(loop, connections);
    }
    if (connections.join() == config.usersPerConnection()) {
      filling.remove(loop);
    }
    return connections;
  }

  /** A user leaves its connections; the last one out closes them. */
  private synchronized boolean leave(MemcacheConnections connections) {
    if (connections.leave() > 0) {
      return false;
    }
    filling.values().remove(connections);
    open.remove(connections);
    return true;
  }

  /** @return the replies no request was waiting for, and the connections opened and dropped, of every server */
  public ProtocolErrors protocolErrors() {
    return errors;
  }

  /** @return the configuration */
  public MemcacheClientConfig config() {
    return config;
  }

  /**
   * Closes every connection, failing the requests outstanding on them with "client closed", and waits a few
   * seconds for the channels to close unless called on one of their event loops. The event loops stay open.
   */
  @Override
  public void close() {
    List<MemcacheConnections> all;
    synchronized (this) { // no user joins meanwhile, unseen
      if (closed) {
        return;
      }
      closed = true;
      all = List.copyOf(open);
      open.clear();
      filling.clear();
    }
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    boolean onOwnLoop = false;
    for (MemcacheConnections connections : all) {
      closing.addAll(connections.closeLinks());
      onOwnLoop |= connections.inOwnEventLoop();
    }
    if (onOwnLoop || group.isShuttingDown()) {
      return;
    }
    try {
      CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException e) {
      // Closing is best effort: a channel that does not close in time is left to its event loop.
    }
  }
}
