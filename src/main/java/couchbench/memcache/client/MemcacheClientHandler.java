package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheDecoderFailure;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaReply;
import couchbench.memcache.codec.MetaRequest;
import couchbench.memcache.codec.RequestBatch;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.concurrent.Ticker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Matches replies to requests on one connection, in order: requests that expect a reply wait in a queue,
 * the oldest first. Meta requests (but me and mn) are tagged with an opaque number, which their reply echoes; a quiet
 * one is answered only when it did not succeed, so a reply that passes it over (a later tag, or the MN of the mn that
 * closes its batch) completes it as a success. Anything that could give a reply to the wrong request (a malformed reply, a reply of the
 * wrong shape, a timeout, the connection closing) fails every waiting request and closes the connection. A reply
 * that no request was waiting for closes it too, and goes to the {@link ProtocolErrors}, as does every connection
 * dropped. The requests a read answers complete once the read is done: a reply too many in the same read (a server
 * that sends STORED twice, in one write) then finds no request waiting, rather than one that a completed request's
 * user wrote meanwhile. A {@link PendingBatch} is queued request by request and written on as one {@link RequestBatch}.
 * Used on its channel's event loop only.
 */
final class MemcacheClientHandler extends ChannelDuplexHandler {

  private final String server;
  private final ProtocolErrors errors;
  private final Duration timeout;
  private final long timeoutNanos;
  private final ArrayDeque<PendingRequest> pending = new ArrayDeque<>();
  /** Requests answered in the read under way, in order: completed when it is done, or when the connection drops. */
  private final ArrayDeque<PendingRequest> answered = new ArrayDeque<>();
  /** Set once the connection must not be used any more; later requests fail with it. */
  private MemcacheFailure broken;
  /** Fires at the oldest request's deadline; at most one is scheduled. */
  private ScheduledFuture<?> timer;
  private ChannelHandlerContext ctx;
  /** The event loop's clock, so that tests can move it on. */
  private Ticker ticker;
  /**
   * Noreply requests written since the last request that awaits a reply. The server stays silent
   * on them unless they fail, and then its error line would arrive where the next reply is
   * expected: such an error cannot be told apart, so it drops the connection instead.
   */
  private boolean noreplySinceLastPending;
  /** The next opaque tag of a meta request. */
  private int nextOpaque;
  /** A half-written request leaves the server out of step with us. */
  private final ChannelFutureListener dropOnFailedWrite;

  MemcacheClientHandler(String server, Duration timeout, ProtocolErrors errors) {
    this.server = server;
    this.errors = errors;
    this.timeout = timeout;
    this.timeoutNanos = timeout.toNanos();
    this.dropOnFailedWrite = f -> {
      if (!f.isSuccess()) {
        drop(MemcacheFailure.connectionFailed(f.cause(), server));
      }
    };
  }

  /** @return whether new requests may be written here */
  boolean usable() {
    return broken == null;
  }

  /** @return whether a reply is awaited */
  boolean awaitsReply() {
    return !pending.isEmpty();
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    this.ticker = ctx.executor().ticker();
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
    if (msg instanceof PendingRequest request) {
      if (broken != null) {
        request.fail(broken);
        promise.tryFailure(broken);
        return;
      }
      MemcacheRequest written = enqueue(request, promise, ticker.nanoTime());
      if (!request.request().noreply()) {
        promise.addListener(dropOnFailedWrite);
      }
      ctx.write(written, promise);
    } else if (msg instanceof PendingBatch batch) {
      if (broken != null) {
        batch.requests().forEach(request -> request.fail(broken));
        promise.tryFailure(broken);
        return;
      }
      List<MemcacheRequest> written = new ArrayList<>(batch.requests().size());
      long now = ticker.nanoTime();
      for (PendingRequest request : batch.requests()) {
        written.add(enqueue(request, promise, now));
      }
      promise.addListener(dropOnFailedWrite); // once for the batch: its requests leave in one buffer
      ctx.write(new RequestBatch(written), promise);
    } else {
      ctx.write(msg, promise);
    }
  }

  /**
   * Puts a request in the queue of those awaiting a reply, or, for a noreply one, completes it once its write is
   * done.
   *
   * @param now the event loop's nanoTime as it is written, from which its timeout counts
   * @return the request to write: a meta one with its opaque tag
   */
  private MemcacheRequest enqueue(PendingRequest request, ChannelPromise promise, long now) {
    if (request.request().noreply()) {
      // Nothing will come back: done once written, and it never enters the queue. A server that
      // stops reading would leave the write pending forever, so the write itself has a deadline.
      noreplySinceLastPending = true;
      ScheduledFuture<?> deadline = ctx.executor().schedule(() -> {
        if (!promise.isDone()) {
          request.fail(MemcacheFailure.timeout(timeout));
          drop(MemcacheFailure.timeout(timeout));
        }
      }, timeoutNanos, TimeUnit.NANOSECONDS);
      promise.addListener(f -> {
        deadline.cancel(false);
        if (f.isSuccess()) {
          request.complete(new MemcacheReply.NoReply());
        } else {
          request.fail(MemcacheFailure.connectionFailed(f.cause(), server));
          drop(MemcacheFailure.connectionFailed(f.cause(), server));
        }
      });
      return request.request();
    }
    if (request.request() instanceof MetaRequest meta && meta.command().tagged()) {
      request.tag(nextOpaque);
      nextOpaque = (nextOpaque + 1) & Integer.MAX_VALUE;
    }
    request.markWritten(now, noreplySinceLastPending);
    noreplySinceLastPending = false;
    pending.add(request);
    if (timer == null) {
      armTimer();
    }
    return request.request();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (msg instanceof MemcacheDecoderFailure failure) {
      drop(failure.truncated() ? MemcacheFailure.closedBy(server) : MemcacheFailure.malformed(failure.problem()));
    } else if (msg instanceof MemcacheReply reply) {
      onReply(reply);
    } else {
      ReferenceCountUtil.release(msg);
    }
  }

  private void onReply(MemcacheReply reply) {
    if (broken != null) {
      return;
    }
    PendingRequest head = passQuietRequests(reply) ? pending.poll() : null;
    if (head == null || (head.afterNoreply() && reply instanceof MemcacheReply.Error)) {
      if (head != null) {
        head.fail(MemcacheFailure.outOfStep());
      } else if (pending.isEmpty()) {
        errors.unexpected(server, reply); // a reply too many: nothing else would fail for it
      }
      drop(MemcacheFailure.outOfStep());
      return;
    }
    MemcacheReply fitted;
    try {
      fitted = ReplyShapes.fit(head.request(), reply);
    } catch (MemcacheFailure failure) {
      head.fail(failure);
      drop(failure);
      return;
    }
    answer(head, fitted);
  }

  private void answer(PendingRequest request, MemcacheReply reply) {
    request.answer(reply);
    answered.add(request);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    completeAnswered();
    ctx.fireChannelReadComplete();
  }

  private void completeAnswered() {
    for (PendingRequest request = answered.poll(); request != null; request = answered.poll()) {
      request.completeAnswer();
    }
  }

  /**
   * Completes the quiet requests in front of the one a reply answers, each as the reply its {@code q} left out: the
   * server answers in order, so it answered them by saying nothing. A reply without an opaque tag (an error line) that
   * a quiet request in front may own cannot be placed; nor can a tag that no request waiting has.
   *
   * @return false when the reply cannot be placed; nothing was completed then
   */
  private boolean passQuietRequests(MemcacheReply reply) {
    int passed = 0;
    for (PendingRequest request : pending) {
      if (!request.quiet()) {
        break;
      }
      if (!(reply instanceof MetaReply meta) || (meta.opaque() < 0 && meta.code() != MetaReply.Code.MN)) {
        return false;
      }
      if (meta.opaque() == ((MetaRequest) request.request()).opaque()) {
        break;
      }
      passed++;
    }
    if (passed == pending.size()) {
      return passed == 0;
    }
    for (int i = 0; i < passed; i++) {
      PendingRequest request = pending.poll();
      MetaRequest quiet = (MetaRequest) request.request();
      answer(request, new MetaReply(quiet.command().suppressed(), "", quiet.opaque(), null));
    }
    return true;
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    drop(MemcacheFailure.closedBy(server));
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    drop(MemcacheFailure.connectionFailed(cause, server));
  }

  /**
   * Completes the requests already answered, fails every waiting request with the failure, and closes the connection;
   * later requests fail too.
   */
  void drop(MemcacheFailure failure) {
    if (broken == null) {
      broken = failure;
      if (failure.dropCause() != null) {
        errors.dropped(server, failure.dropCause());
      }
    }
    completeAnswered(); // after broken is set: what their users send next goes to a new connection
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
    for (PendingRequest request = pending.poll(); request != null; request = pending.poll()) {
      request.fail(failure);
    }
    if (ctx != null) {
      ctx.close();
    }
  }

  private void armTimer() {
    PendingRequest oldest = pending.peek();
    if (oldest == null) {
      timer = null;
      return;
    }
    long delay = oldest.writtenAt() + timeoutNanos - ticker.nanoTime();
    timer = ctx.executor().schedule(this::onTimer, Math.max(0, delay), TimeUnit.NANOSECONDS);
  }

  /** Replies that came in since the timer was set moved the deadline on: set it again rather than per request. */
  private void onTimer() {
    timer = null;
    PendingRequest oldest = pending.peek();
    if (broken != null || oldest == null) {
      return;
    }
    if (ticker.nanoTime() - oldest.writtenAt() >= timeoutNanos) {
      drop(MemcacheFailure.timeout(timeout));
    } else {
      armTimer();
    }
  }
}
