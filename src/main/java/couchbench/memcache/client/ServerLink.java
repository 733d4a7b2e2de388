package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheTextDecoder;
import couchbench.memcache.codec.MemcacheTextEncoder;
import couchbench.memcache.codec.MetaEncoder;
import couchbench.memcache.codec.RequestBatchEncoder;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoop;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;

/**
 * One connection to one server, on one event loop, opened on first use and opened again by the first request
 * after it closed. Requests sent while it opens wait, then go out together. Its state is touched on its event
 * loop only.
 */
final class ServerLink {

  private static final MemcacheTextEncoder ENCODER = new MemcacheTextEncoder();
  private static final MetaEncoder META_ENCODER = new MetaEncoder();
  private static final RequestBatchEncoder BATCH_ENCODER = new RequestBatchEncoder();
  private static final HandshakeFailureSink HANDSHAKE_FAILURES = new HandshakeFailureSink();

  /**
   * Behind the SslHandler until its handshake is done: a failed handshake is the handshake future's to tell
   * (tcpConnected), and would otherwise reach the pipeline's tail, which logs it with a stack trace.
   */
  @ChannelHandler.Sharable
  private static final class HandshakeFailureSink extends ChannelInboundHandlerAdapter {
    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      // told by the handshake future
    }
  }

  private final String server;
  private final InetSocketAddress address;
  private final EventLoop loop;
  private final MemcacheClientConfig config;
  private final Bootstrap bootstrap;
  private final ProtocolErrors errors;

  private Channel channel;
  private MemcacheClientHandler handler;
  private boolean connecting;
  /** Whether a connection was opened before: the next one opened is then opened again, after a drop. */
  private boolean openedBefore;
  /** Requests written on the open connection, for -DreconnectEvery. */
  private long carried;
  private boolean closed;
  private List<PendingRequest> waiting = new ArrayList<>();
  private final CompletableFuture<Void> closeDone = new CompletableFuture<>();

  ServerLink(InetSocketAddress address, EventLoop loop, ChannelFactory<? extends Channel> channelFactory,
      MemcacheClientConfig config, ProtocolErrors errors) {
    this.address = address;
    this.errors = errors;
    this.server = address.getHostString() + ":" + address.getPort();
    this.loop = loop;
    this.config = config;
    this.bootstrap = new Bootstrap()
        .group(loop)
        .channelFactory(channelFactory)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeout().toMillis())
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel ch) {
            if (config.tls().isPresent()) {
              // The memcache handlers join once the handshake is done (tcpConnected): a handshake that fails is a
              // connection that never opened, not one the server dropped.
              ch.pipeline().addLast(tls(config.tls().get(), ch, address, config), HANDSHAKE_FAILURES);
            } else {
              configure(ch.pipeline(), server, config, errors);
            }
          }
        });
  }

  /**
   * Sets up a memcache client pipeline: bytes guard, encoders (batches, text, meta), decoder, reply matcher. Shared
   * by several users (usersPerConnection above 1), a connection also holds back the flushes of the requests that its
   * replies set off until the read is done, so that they leave in one write, as a pipelining client sends them.
   */
  static void configure(ChannelPipeline pipeline, String server, MemcacheClientConfig config, ProtocolErrors errors) {
    MemcacheClientHandler replies = new MemcacheClientHandler(server, config.requestTimeout(), errors);
    if (config.usersPerConnection() > 1) {
      pipeline.addLast(new FlushConsolidationHandler(config.usersPerConnection(), true));
    }
    pipeline.addLast(
        new UnsolicitedBytesGuard(replies, server, errors),
        BATCH_ENCODER,
        ENCODER,
        META_ENCODER,
        new MemcacheTextDecoder(MemcacheTextDecoder.DEFAULT_MAX_LINE_BYTES, config.maxValueBytes()),
        replies);
  }

  /**
   * TLS under the memcache codec, on the context's engine (OpenSSL's where Netty has it: about 40% less of TLS's
   * extra client CPU per request than the JDK's, docs/cpu-per-request.md). The handshake may take as long as a
   * connection may take to open.
   */
  private static SslHandler tls(SslContext context, Channel channel, InetSocketAddress address,
      MemcacheClientConfig config) {
    SslHandler handler = context.newHandler(channel.alloc(), address.getHostString(), address.getPort());
    handler.setHandshakeTimeoutMillis(config.connectTimeout().toMillis());
    return handler;
  }

  /** Sends a request from any thread; its future completes on this link's event loop. */
  void send(PendingRequest request) {
    if (loop.inEventLoop()) {
      sendHere(request);
      return;
    }
    try {
      loop.execute(() -> sendHere(request));
    } catch (RejectedExecutionException e) {
      request.fail(MemcacheFailure.clientClosed());
    }
  }

  /** Closes the connection, failing what waits; the future completes once the channel is closed. */
  CompletableFuture<Void> close() {
    try {
      loop.execute(this::closeHere);
    } catch (RejectedExecutionException e) {
      closeDone.complete(null); // the event loop is gone, and its channels with it
    }
    return closeDone;
  }

  /** @return whether the caller runs on this link's event loop, where waiting for close would deadlock */
  boolean inEventLoop() {
    return loop.inEventLoop();
  }

  /** Sends requests from any thread, in one write; their futures complete on this link's event loop, in order. */
  void sendAll(List<PendingRequest> requests) {
    if (loop.inEventLoop()) {
      sendHere(requests);
      return;
    }
    try {
      loop.execute(() -> sendHere(requests));
    } catch (RejectedExecutionException e) {
      requests.forEach(request -> request.fail(MemcacheFailure.clientClosed()));
    }
  }

  private void sendHere(PendingRequest request) {
    retireIfDue();
    if (writable()) {
      write(channel, request);
      carried++;
      channel.flush();
    } else {
      hold(request);
    }
  }

  private void sendHere(List<PendingRequest> requests) {
    retireIfDue();
    if (writable()) {
      write(channel, new PendingBatch(requests));
      carried += requests.size();
      channel.flush();
    } else {
      requests.forEach(this::hold);
    }
  }

  // -DreconnectEvery: a connection that carried its share, and has no reply to wait for, is closed by the client (no
  // drop); the request at hand then opens the next one, which is a new connection, not one opened again after a drop.
  private void retireIfDue() {
    if (config.reconnectEvery() > 0 && carried >= config.reconnectEvery() && writable() && !handler.awaitsReply()) {
      handler.drop(MemcacheFailure.clientClosed());
      channel = null;
      handler = null;
      openedBefore = false;
    }
  }

  private boolean writable() {
    return !closed && channel != null && channel.isActive() && handler.usable();
  }

  /** Until the connection is up, requests wait for it (and start connecting); after close they fail. */
  private void hold(PendingRequest request) {
    if (closed) {
      request.fail(MemcacheFailure.clientClosed());
      return;
    }
    waiting.add(request);
    if (!connecting) {
      connect();
    }
  }

  private void connect() {
    connecting = true;
    channel = null;
    handler = null;
    bootstrap.connect(address).addListener((ChannelFuture f) -> {
      if (loop.inEventLoop()) {
        tcpConnected(f);
      } else {
        // A channel that could not even register (e.g. a channel type foreign to this loop) reports elsewhere.
        try {
          loop.execute(() -> tcpConnected(f));
        } catch (RejectedExecutionException e) {
          connected(f.channel(), f.cause()); // the loop is gone: nothing else can touch this link any more
        }
      }
    });
  }

  // Over TLS, a connection is open once its handshake is done: the requests waiting go out then, or fail with it.
  private void tcpConnected(ChannelFuture f) {
    SslHandler tls = f.isSuccess() ? f.channel().pipeline().get(SslHandler.class) : null;
    if (tls == null) {
      connected(f.channel(), f.cause());
    } else {
      tls.handshakeFuture().addListener(handshake -> {
        if (handshake.isSuccess()) {
          f.channel().pipeline().remove(HANDSHAKE_FAILURES);
          configure(f.channel().pipeline(), server, config, errors);
          connected(f.channel(), null);
        } else {
          connected(f.channel(), MemcacheFailure.handshakeFailed(handshake.cause(), server));
        }
      });
    }
  }

  /** @param failure why the connection (or its handshake, a {@link MemcacheFailure}) failed; null when it is open */
  private void connected(Channel opened, Throwable failure) {
    connecting = false;
    List<PendingRequest> ready = waiting;
    waiting = new ArrayList<>();
    if (failure != null) {
      MemcacheFailure failed = failure instanceof MemcacheFailure handshake ? handshake
          : MemcacheFailure.connectFailed(failure, server, config.connectTimeout());
      ready.forEach(request -> request.fail(failed));
      opened.close().addListener(done -> {
        if (closed) {
          closeDone.complete(null);
        }
      });
      return;
    }
    if (closed) {
      ready.forEach(request -> request.fail(MemcacheFailure.clientClosed()));
      opened.close().addListener(done -> closeDone.complete(null));
      return;
    }
    channel = opened;
    handler = opened.pipeline().get(MemcacheClientHandler.class);
    errors.opened(server, openedBefore);
    openedBefore = true;
    carried = ready.size();
    for (PendingRequest request : ready) {
      write(opened, request);
    }
    opened.flush();
  }

  /**
   * A write that never reaches the reply matcher (the channel closed under it) must still fail its requests.
   *
   * @param message a {@link PendingRequest}, or a {@link PendingBatch}: its requests leave in one buffer
   */
  private void write(Channel to, Object message) {
    to.write(message).addListener(f -> {
      if (!f.isSuccess()) {
        MemcacheFailure failure = MemcacheFailure.connectionFailed(f.cause(), server);
        if (message instanceof PendingBatch batch) {
          batch.requests().forEach(request -> request.fail(failure));
        } else {
          ((PendingRequest) message).fail(failure);
        }
      }
    });
  }

  private void closeHere() {
    if (closed) {
      return;
    }
    closed = true;
    List<PendingRequest> ready = waiting;
    waiting = new ArrayList<>();
    ready.forEach(request -> request.fail(MemcacheFailure.clientClosed()));
    if (connecting) {
      return; // connected() closes what it opens and completes closeDone
    }
    if (channel == null) {
      closeDone.complete(null);
      return;
    }
    handler.drop(MemcacheFailure.clientClosed());
    channel.closeFuture().addListener(done -> closeDone.complete(null));
  }
}
