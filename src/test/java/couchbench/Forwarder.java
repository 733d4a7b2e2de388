package couchbench;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A TCP forwarder on a free loopback port in front of a server on 127.0.0.1, passing bytes both ways untouched (after
 * handlers of its own in front, such as TLS), that can delay every reply by a fixed time, or stall: for a while, the
 * server's replies are held, then sent on in order, as a server that stops answering for a second and then catches up;
 * or hold them until the test releases them; or hold the requests that start with given bytes; or go down: for a
 * while, every connection is closed, as a node that went away and came back.
 */
public final class Forwarder implements AutoCloseable {

  private static final AttributeKey<ChannelFuture> UPSTREAM = AttributeKey.valueOf("couchbench.forwarder.upstream");
  private static final AttributeKey<Queue<Object>> HELD = AttributeKey.valueOf("couchbench.forwarder.held");
  private static final AttributeKey<Long> SEND_AT = AttributeKey.valueOf("couchbench.forwarder.sendAt");

  private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final Channel listener;
  private volatile long stallUntilNanos;
  private volatile long delayNanos;
  private volatile long downUntilNanos;
  private volatile byte[] delayedRequestStart = new byte[0];
  private volatile long requestDelayNanos;
  private final ChannelGroup clients = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

  private Forwarder(int upstreamPort, Consumer<SocketChannel> front) throws InterruptedException {
    Relay relay = new Relay(upstreamPort);
    listener = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            if (System.nanoTime() < downUntilNanos) {
              channel.close();
              return;
            }
            clients.add(channel);
            front.accept(channel);
            channel.pipeline().addLast(relay);
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
  }

  /**
   * @param upstreamPort the server's port on 127.0.0.1
   * @return the running forwarder
   */
  public static Forwarder start(int upstreamPort) throws InterruptedException {
    return new Forwarder(upstreamPort, channel -> {});
  }

  /**
   * A forwarder whose client connections pass first through handlers of their own, e.g. TLS ({@link TlsProxy}).
   *
   * @param upstreamPort the server's port on 127.0.0.1
   * @param front adds the handlers to each client connection's pipeline, before the relay
   * @return the running forwarder
   */
  public static Forwarder withFront(int upstreamPort, Consumer<SocketChannel> front) throws InterruptedException {
    return new Forwarder(upstreamPort, front);
  }

  /** @return the forwarder's port on 127.0.0.1 */
  public int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** @return 127.0.0.1:PORT, the forwarder's address */
  public String address() {
    return "127.0.0.1:" + port();
  }

  /**
   * Holds every reply from now for this long; those held are then sent on in the order they came.
   *
   * @param length how long
   */
  public void stall(Duration length) {
    stallUntilNanos = System.nanoTime() + length.toNanos();
  }

  /**
   * Holds every reply from now until {@link #release()}: a run waits on its requests until the test has acted.
   */
  public void hold() {
    stallUntilNanos = System.nanoTime() + TimeUnit.DAYS.toNanos(1);
  }

  /** Sends on every reply held since {@link #hold()}, in the order they came, and holds no more. */
  public void release() {
    stallUntilNanos = System.nanoTime();
    clients.forEach(client -> client.eventLoop().execute(() -> sendHeld(client, client.attr(HELD).get())));
  }

  /**
   * Holds every reply from now on for this long, as a server farther away would: a fixed delay added to each.
   *
   * @param each how long each reply is held
   */
  public void delay(Duration each) {
    delayNanos = each.toNanos();
  }

  /**
   * Holds each request that starts with these bytes for this long before sending it on, as a slow path to the server
   * would for that request alone (e.g. memcache's {@code delete }: an invalidation delayed); a connection's requests
   * after it wait behind it, in order. A request is known by the start of what one read from its connection brings:
   * meant for clients that send one request and wait for its reply, as memcache's text protocol's do.
   *
   * @param start the bytes such a request starts with, e.g. "delete "
   * @param each how long each is held
   */
  public void delayRequests(String start, Duration each) {
    delayedRequestStart = start.getBytes(StandardCharsets.US_ASCII);
    requestDelayNanos = each.toNanos();
  }

  /**
   * Goes down for this long: closes every client connection now, and each new one at once until then.
   *
   * @param length how long
   */
  public void down(Duration length) {
    downUntilNanos = System.nanoTime() + length.toNanos();
    clients.close();
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Relays each client connection to the server and back, on the client's event loop. */
  @ChannelHandler.Sharable
  private final class Relay extends ChannelInboundHandlerAdapter {

    private final int upstreamPort;

    Relay(int upstreamPort) {
      this.upstreamPort = upstreamPort;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
      Channel client = context.channel();
      Queue<Object> held = new ArrayDeque<>();
      client.attr(HELD).set(held);
      ChannelFuture upstream = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext upstreamContext, Object reply) {
              if (delayNanos > 0) {
                // Scheduled tasks of one loop run by deadline, then in the order scheduled: replies stay in order.
                client.eventLoop().schedule(() -> client.writeAndFlush(reply), delayNanos, TimeUnit.NANOSECONDS);
                return;
              }
              long wait = stallUntilNanos - System.nanoTime();
              if (wait <= 0 && held.isEmpty()) {
                client.writeAndFlush(reply);
                return;
              }
              held.add(reply);
              if (held.size() == 1) {
                client.eventLoop().schedule(() -> sendHeld(client, held), Math.max(wait, 0), TimeUnit.NANOSECONDS);
              }
            }

            @Override
            public void channelInactive(ChannelHandlerContext upstreamContext) {
              client.close();
            }
          })
          .connect("127.0.0.1", upstreamPort);
      upstream.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
      client.attr(UPSTREAM).set(upstream);
      context.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object request) {
      long now = System.nanoTime();
      long sendAt = delayed(request) ? now + requestDelayNanos : now;
      Long earlier = context.channel().attr(SEND_AT).get();
      if (earlier != null && earlier - sendAt > 0) {
        sendAt = earlier; // behind a request still held
      }
      context.channel().attr(SEND_AT).set(sendAt);
      if (sendAt - now > 0) {
        // Scheduled tasks of one loop run by deadline, then in the order scheduled: requests stay in order.
        context.channel().eventLoop().schedule(() -> sendOn(context, request), sendAt - now, TimeUnit.NANOSECONDS);
      } else {
        sendOn(context, request);
      }
    }

    private boolean delayed(Object request) {
      byte[] start = delayedRequestStart;
      if (requestDelayNanos <= 0 || !(request instanceof ByteBuf bytes) || bytes.readableBytes() < start.length) {
        return false;
      }
      for (int at = 0; at < start.length; at++) {
        if (bytes.getByte(bytes.readerIndex() + at) != start[at]) {
          return false;
        }
      }
      return true;
    }

    private void sendOn(ChannelHandlerContext context, Object request) {
      ChannelFuture upstream = context.channel().attr(UPSTREAM).get();
      // Listeners of one future run in the order added, on this loop: requests reach the server in order.
      upstream.addListener(connected -> {
        if (connected.isSuccess()) {
          upstream.channel().writeAndFlush(request);
        } else {
          ReferenceCountUtil.release(request);
          context.close();
        }
      });
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
      context.channel().attr(UPSTREAM).get().channel().close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close(); // e.g. a refused TLS handshake in front: the client is told by the alert
    }
  }

  private static void sendHeld(Channel client, Queue<Object> held) {
    while (!held.isEmpty()) {
      client.write(held.poll());
    }
    client.flush();
  }
}
