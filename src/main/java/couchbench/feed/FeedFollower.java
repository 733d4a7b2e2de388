package couchbench.feed;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

/**
 * Follows one listener's feed on its virtual user's event loop: one connection at a time, HTTP/1.1 with a preemptive
 * login, through TLS for https; a stream read as it comes, a poll asked again as soon as it is answered (longpoll) or
 * after the interval (normal). A connection that ends before the listener is done (closed, reset, refused, or silent
 * for three heartbeats) is opened again, after a wait that grows with the failures in a row, and the feed goes on
 * from the last seq it got, so that nothing is skipped.
 */
final class FeedFollower {

  /** What the follower puts into the run's report. */
  interface Entries {

    /**
     * @param request the entry's name
     * @param startNanos its start, on System.nanoTime's clock
     * @param endNanos its end, on the same clock
     */
    void ok(String request, long startNanos, long endNanos);

    /** @param failure why the listener failed; empty when it did not */
    void verdict(Optional<String> failure);
  }

  private static final long CHECK_MILLIS = 100;
  private static final long FIRST_RETRY_MILLIS = 50;
  private static final long LAST_RETRY_MILLIS = 1000;
  private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(30);

  private final Subscription subscription;
  private final FeedRequest request;
  private final FeedTarget target;
  private final EventLoop loop;
  private final Bootstrap bootstrap;
  private final FeedConnections connections;
  private final Entries entries;
  private final Runnable whenEnded;
  private final String host;
  private final int port;
  private final boolean https;

  private String since;
  private boolean attached;
  private boolean stopping;
  private boolean ended;
  private boolean awaitingReply;
  private boolean keepAlive;
  private int failuresInARow;
  private Channel channel;
  private String closing;
  private ScheduledFuture<?> checks;

  FeedFollower(Subscription subscription, FeedTarget target, EventLoop loop,
      ChannelFactory<? extends Channel> channelFactory, FeedConnections connections, Entries entries,
      Runnable whenEnded) {
    this.subscription = subscription;
    this.request = subscription.request();
    this.target = target;
    this.loop = loop;
    this.connections = connections;
    this.entries = entries;
    this.whenEnded = whenEnded;
    URI node = subscription.node();
    this.https = node.getScheme().equals("https");
    this.host = node.getHost();
    this.port = node.getPort() > 0 ? node.getPort() : https ? 443 : 80;
    this.bootstrap = new Bootstrap().group(loop).channelFactory(channelFactory)
        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) target.connectTimeout().toMillis())
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(new ChannelInitializer<>() {
          @Override
          protected void initChannel(Channel channel) {
            if (https) {
              channel.pipeline().addLast(new SslHandler(engine()));
            }
            channel.pipeline().addLast(new HttpClientCodec(), new IdleStateHandler(silence().toMillis(), 0, 0,
                TimeUnit.MILLISECONDS), new FeedDecoder(request.kind()), new Handler());
          }
        });
  }

  /** Starts following; call on the event loop. */
  void start() {
    since = subscription.since();
    checks = loop.scheduleAtFixedRate(this::checkDone, CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
    connect();
  }

  private void connect() {
    if (stopping) {
      finish();
      return;
    }
    bootstrap.connect(host, port).addListener((ChannelFuture connected) -> {
      if (!connected.isSuccess()) {
        retry("could not connect to " + host + ":" + port + " (" + describe(connected.cause()) + ")");
        return;
      }
      channel = connected.channel();
      connections.connected();
      closing = null;
      if (stopping) {
        channel.close();
      } else {
        send();
      }
    });
  }

  private void send() {
    if (channel == null || !channel.isActive() || stopping) {
      return;
    }
    String path = request.path(since, !attached);
    Optional<String> body = request.body();
    FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1,
        body.isPresent() ? HttpMethod.POST : HttpMethod.GET, path,
        body.map(json -> Unpooled.copiedBuffer(json, StandardCharsets.UTF_8)).orElse(Unpooled.EMPTY_BUFFER));
    http.headers().set(HttpHeaderNames.HOST, host + ":" + port)
        .set(HttpHeaderNames.ACCEPT, request.kind() == FeedKind.EVENTSOURCE ? "text/event-stream" : "application/json")
        .set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE)
        .set(HttpHeaderNames.CONTENT_LENGTH, http.content().readableBytes());
    body.ifPresent(json -> http.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON));
    target.authorization().ifPresent(login -> http.headers().set(HttpHeaderNames.AUTHORIZATION, login));
    awaitingReply = true;
    channel.writeAndFlush(http);
  }

  private void event(FeedEvent event) {
    // A heartbeat needs nothing: the idle handler saw its bytes.
    if (event instanceof FeedEvent.Opened opened) {
      opened(opened);
    } else if (event instanceof FeedEvent.Row row) {
      changed(row.change());
    } else if (event instanceof FeedEvent.Ended end) {
      ended(end.lastSeq());
    } else if (event instanceof FeedEvent.Refused refused) {
      drop("CouchDB answered " + refused.status() + " " + oneLine(refused.body()));
    }
  }

  private void opened(FeedEvent.Opened opened) {
    keepAlive = opened.keepAlive();
    if (opened.status() != 200 || !request.kind().streams()) {
      return;
    }
    if (request.kind() == FeedKind.EVENTSOURCE && !opened.contentType().startsWith("text/event-stream")) {
      drop("it answered feed=eventsource with " + opened.contentType() + ", not text/event-stream");
      return;
    }
    attach();
  }

  private void changed(Change change) {
    long now = System.nanoTime();
    if (change.seq() != null) {
      since = change.seq();
    }
    long start = subscription.notified(change, now);
    if (start >= 0) {
      entries.ok(subscription.requestName(), start, now);
    }
    if (subscription.done(now)) {
      stop();
    }
  }

  private void ended(String lastSeq) {
    awaitingReply = false;
    if (lastSeq != null) {
      since = lastSeq;
    }
    if (request.kind().streams()) {
      drop("the server ended the feed");
      return;
    }
    attach();
    if (subscription.done(System.nanoTime())) {
      stop();
    } else if (!keepAlive) {
      closing = "";
      channel.close();
    } else if (request.kind() == FeedKind.LONGPOLL) {
      send();
    } else {
      loop.schedule(this::send, request.pollInterval().toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private void attach() {
    failuresInARow = 0;
    if (!attached) {
      attached = true;
      subscription.attached();
    }
  }

  /** Closes the connection for a reason: the follower then connects again. */
  private void drop(String why) {
    if (channel != null && closing == null) {
      closing = why;
      channel.close();
    }
  }

  /** The connection is closed, for a reason given or not: stops, or connects again. */
  private void closed(Channel closed) {
    if (closed != channel) {
      return;
    }
    String why = closing != null ? closing : stopping ? "" : "the server closed the connection";
    channel = null;
    closing = null;
    awaitingReply = false;
    connections.closed(!stopping && !why.isEmpty());
    if (stopping) {
      finish();
    } else if (why.isEmpty()) {
      connect(); // a poll's reply that closed its connection, as HTTP/1.1 allows
    } else {
      retry(why);
    }
  }

  private void retry(String why) {
    if (stopping) {
      finish();
      return;
    }
    subscription.reconnecting(why);
    long wait = Math.min(LAST_RETRY_MILLIS, FIRST_RETRY_MILLIS << Math.min(failuresInARow, 5));
    failuresInARow++;
    loop.schedule(this::connect, wait, TimeUnit.MILLISECONDS);
  }

  private void checkDone() {
    if (!stopping && subscription.done(System.nanoTime())) {
      stop();
    }
  }

  private void stop() {
    if (stopping) {
      return;
    }
    stopping = true;
    checks.cancel(false);
    if (channel != null) {
      channel.close();
    } else {
      finish(); // between connections: a connect under way finishes when it sees stopping
    }
  }

  private void finish() {
    if (ended) {
      return;
    }
    ended = true;
    checks.cancel(false);
    entries.verdict(subscription.verdict());
    whenEnded.run();
  }

  /** How long a connection may stay silent while it should speak: three heartbeats, or a poll's wait and two. */
  private Duration silence() {
    Duration heartbeats = request.heartbeat().multipliedBy(3);
    return switch (request.kind()) {
      case CONTINUOUS, EVENTSOURCE -> heartbeats;
      case LONGPOLL -> request.pollTimeout().plus(heartbeats);
      case NORMAL -> REPLY_TIMEOUT;
    };
  }

  private SSLEngine engine() {
    SSLEngine engine = target.tls().orElseThrow().createSSLEngine(host, port);
    engine.setUseClientMode(true);
    if (target.checkHostName()) {
      SSLParameters parameters = engine.getSSLParameters();
      parameters.setEndpointIdentificationAlgorithm("HTTPS");
      engine.setSSLParameters(parameters);
    }
    return engine;
  }

  private static String describe(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + oneLine(root.getMessage()));
  }

  private static String oneLine(String text) {
    String line = text.replaceAll("\\s+", " ").trim();
    return line.length() <= 120 ? line : line.substring(0, 120) + "...";
  }

  /** The pipeline's last handler: the decoder's events, silence, errors and the end of the connection. */
  private final class Handler extends SimpleChannelInboundHandler<FeedEvent> {

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FeedEvent event) {
      if (ctx.channel() == channel) {
        event(event);
      }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof IdleStateEvent && ctx.channel() == channel
          && (awaitingReply || request.kind().streams())) {
        drop("nothing came for " + silence().toMillis() + " ms");
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (ctx.channel() == channel) {
        drop(describe(cause));
      }
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      closed(ctx.channel());
    }
  }
}
