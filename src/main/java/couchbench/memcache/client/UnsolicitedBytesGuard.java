package couchbench.memcache.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Drops the connection when bytes arrive while no reply is awaited (an error to a noreply request, or a server
 * that is not memcache, a second reply to a request): left in the decoder, they would be read as the start of the next
 * request's reply. Nothing waited for them, so they go to the {@link ProtocolErrors}, once per connection.
 */
final class UnsolicitedBytesGuard extends ChannelInboundHandlerAdapter {

  private final MemcacheClientHandler handler;
  private final String server;
  private final ProtocolErrors errors;

  UnsolicitedBytesGuard(MemcacheClientHandler handler, String server, ProtocolErrors errors) {
    this.handler = handler;
    this.server = server;
    this.errors = errors;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof ByteBuf bytes && bytes.isReadable() && !handler.awaitsReply()) {
      if (handler.usable()) {
        errors.unexpected(server, bytes);
      }
      bytes.release();
      handler.drop(MemcacheFailure.unsolicited(server));
      return;
    }
    ctx.fireChannelRead(msg);
  }
}
