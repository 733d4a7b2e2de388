package couchbench.resources;

import couchbench.memcache.client.MemcacheClient;
import couchbench.memcache.client.MemcacheConnections;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.TargetException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Questions to memcache servers outside Gatling, where there is no event loop to borrow: one thread of its own and a
 * connection to each server, kept for as long as it is open (the servers' stats read once a second reuse them; a
 * dropped connection is opened again by the next question).
 */
final class MemcacheEnquiries implements AutoCloseable {

  private final List<InetSocketAddress> servers;
  private final EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final MemcacheClient client;
  private final MemcacheConnections connections;

  /** @param target the servers asked, in order, over TLS when the target speaks it */
  MemcacheEnquiries(MemcacheTarget target) {
    this.servers = target.addresses();
    this.client = new MemcacheClient(target.clientConfig(), group, NioSocketChannel::new);
    this.connections = client.connectionsFor(group.next());
  }

  /**
   * Asks every server the same question, one after the other.
   *
   * @param request the question
   * @param what what it is, for the message: "stats"
   * @param wait how long a server may take to answer
   * @return each server's reply, in order
   * @throws TargetException when a server does not answer in time, naming it
   */
  List<MemcacheReply> ask(MemcacheRequest request, String what, Duration wait) {
    List<MemcacheReply> replies = new ArrayList<>();
    for (InetSocketAddress server : servers) {
      replies.add(ask(server, request, what, wait));
    }
    return replies;
  }

  private MemcacheReply ask(InetSocketAddress server, MemcacheRequest request, String what, Duration wait) {
    try {
      return connections.sendTo(server, request).get(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new TargetException("memcache server " + address(server) + " did not answer " + what + ": "
          + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new TargetException("memcache server " + address(server) + " did not answer " + what + " within "
          + wait.toMillis() / 1000.0 + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TargetException("interrupted while sending " + what + " to memcache server " + address(server));
    }
  }

  private static String address(InetSocketAddress server) {
    return server.getHostString() + ":" + server.getPort();
  }

  @Override
  public void close() {
    try {
      client.close();
    } finally {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }
}
