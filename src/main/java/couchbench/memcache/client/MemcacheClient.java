package couchbench.memcache.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

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
  private final Set<MemcacheConnections> open = ConcurrentHashMap.newKeySet();
  private final MemcacheConnections sharedPool;
  private final AtomicBoolean closed = new AtomicBoolean();

  /**
   * Creates a client; no connection is opened before the first request.
   *
   * @param config servers, timeouts, pool and limits
   * @param group the event loops (used for the shared pool; per-user connections use the loop given)
   * @param channelFactory makes client socket channels of the event loops' type
   */
  public MemcacheClient(MemcacheClientConfig config, EventLoopGroup group,
      ChannelFactory<? extends Channel> channelFactory) {
    this.config = config;
    this.group = group;
    this.channelFactory = channelFactory;
    this.ring = new KetamaRing(config.servers());
    this.sharedPool = config.sharedPool()
        ? new MemcacheConnections(ring, MemcacheConnections.linkTable(config.servers(), config.poolSize(),
            (server, i) -> new ServerLink(server, group.next(), channelFactory, config)), true, open::remove)
        : null;
    if (sharedPool != null) {
      open.add(sharedPool);
    }
  }

  /**
   * The connections of one virtual user: one per server, created on the user's event loop when first used.
   * With a shared pool, the one shared set instead. Close it when the user is done (a no-op for the shared set).
   *
   * @param loop the virtual user's event loop; its replies complete there
   * @return the connections
   * @throws IllegalStateException when the client is closed
   */
  public MemcacheConnections connectionsFor(EventLoop loop) {
    if (closed.get()) {
      throw new IllegalStateException("memcache client closed");
    }
    if (sharedPool != null) {
      return sharedPool;
    }
    MemcacheConnections connections = new MemcacheConnections(ring, MemcacheConnections.linkTable(config.servers(),
        1, (server, i) -> new ServerLink(server, loop, channelFactory, config)), false, open::remove);
    open.add(connections);
    if (closed.get()) {
      connections.closeLinks(); // close() ran meanwhile and did not see this set
    }
    return connections;
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
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    List<CompletableFuture<Void>> closing = new ArrayList<>();
    boolean onOwnLoop = false;
    for (MemcacheConnections connections : List.copyOf(open)) {
      closing.addAll(connections.closeLinks());
      onOwnLoop |= connections.inOwnEventLoop();
    }
    open.clear();
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
