package couchbench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;

/**
 * A TLS-terminating proxy on a free loopback port in front of a plain-http server (the CouchDB stand-in), as a
 * CouchDB behind https: it shows one certificate, may require a client certificate, and passes the bytes on
 * untouched. It counts the handshakes it completed.
 */
public final class TlsProxy implements AutoCloseable {

  private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
  private final AtomicInteger handshakes = new AtomicInteger();
  private final Channel listener;

  private TlsProxy(SslContext tls, int upstreamPort) throws InterruptedException {
    listener = new ServerBootstrap().group(loop).channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel channel) {
            SslHandler handshake = tls.newHandler(channel.alloc());
            handshake.handshakeFuture().addListener(done -> {
              if (done.isSuccess()) {
                handshakes.incrementAndGet();
              }
            });
            channel.pipeline().addLast(handshake, new Relay(upstreamPort));
          }
        })
        .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
  }

  /**
   * @param upstreamPort the plain-http server's port on 127.0.0.1
   * @param server the certificate the proxy shows, with its key
   * @param requiredClient when present, the only client certificate accepted, and one is required
   * @return the running proxy
   */
  public static TlsProxy start(int upstreamPort, TestCertificates.Identity server,
      Optional<X509Certificate> requiredClient) throws SSLException, InterruptedException {
    SslContextBuilder builder = SslContextBuilder.forServer(server.key(), server.certificate())
        .sslProvider(SslProvider.JDK);
    requiredClient.ifPresent(client -> builder.trustManager(client).clientAuth(ClientAuth.REQUIRE));
    return new TlsProxy(builder.build(), upstreamPort);
  }

  /** @return https://127.0.0.1:PORT */
  public String url() {
    return "https://127.0.0.1:" + ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** @return the TLS handshakes completed so far */
  public int handshakes() {
    return handshakes.get();
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Relays one decrypted client connection to the upstream server and back, on the client's event loop. */
  private static final class Relay extends ChannelInboundHandlerAdapter {

    private final int upstreamPort;
    private ChannelFuture upstream;

    Relay(int upstreamPort) {
      this.upstreamPort = upstreamPort;
    }

    @Override
    public void channelActive(ChannelHandlerContext context) {
      Channel client = context.channel();
      upstream = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
          .handler(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext upstreamContext, Object reply) {
              client.writeAndFlush(reply);
            }

            @Override
            public void channelInactive(ChannelHandlerContext upstreamContext) {
              client.close();
            }
          })
          .connect("127.0.0.1", upstreamPort);
      upstream.addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
      context.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object request) {
      // Listeners of one future run in the order added, on this loop: requests reach upstream in order.
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
      upstream.channel().close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close(); // a refused handshake: the client is told by the alert
    }
  }
}
