package couchbench.memcache.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Drops the connection when bytes arrive while no reply is awaited (an error to a noreply request, or a server
 * that is not memcache): left in the decoder, they would be read as the start of the next request's reply.
 */
final class UnsolicitedBytesGuard extends ChannelInboundHandlerAdapter {

  private final MemcacheClientHandler handler;
  private final String server;

  UnsolicitedBytesGuard(MemcacheClientHandler handler, String server) {
    this.handler = handler;
    this.server = server;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf bytes && bytes.isReadable() && !handler.awaitsReply()) {
      bytes.release();
      handler.drop(MemcacheFailure.unsolicited(server));
      return;
    }
    ctx.fireChannelRead(msg);
  }
}
