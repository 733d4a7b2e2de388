package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The client pipeline (guard, encoder, decoder, reply matcher) on an EmbeddedChannel with a movable clock. */
class MemcacheClientHandlerTest {

  private static final String SERVER = "127.0.0.1:11211";
  private static final MemcacheClientConfig CONFIG =
      MemcacheClientConfig.of(List.of(new InetSocketAddress("127.0.0.1", 11211)))
          .withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(5));

  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final ProtocolErrors errors = new ProtocolErrors();

  MemcacheClientHandlerTest() {
    channel.freezeTime();
    ServerLink.configure(channel.pipeline(), SERVER, CONFIG, errors);
  }

  @Test
  void shouldMatchPipelinedRepliesToRequestsInOrder() {
    CompletableFuture<MemcacheReply> set = send(channel, set("a", "one", false));
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a", "b")));
    CompletableFuture<MemcacheReply> incr = send(channel, new MemcacheRequest.Arithmetic(true, "n", 2, false));
    CompletableFuture<MemcacheReply> stats = send(channel, new MemcacheRequest.Stats("items"));
    assertEquals("set a 0 0 3\r\none\r\nget a b\r\nincr n 2\r\nstats items\r\n", written(channel));
    assertFalse(set.isDone());
    receive(channel, "STORED\r\nVALUE b 0 3\r\ntwo\r\nEND\r\n3\r\nEND\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), set.join());
    assertEquals("b", ((MemcacheReply.Values) get.join()).values().get(0).key());
    assertEquals(new MemcacheReply.Number(3), incr.join());
    assertEquals(new MemcacheReply.StatsLines(Map.of()), stats.join(), "a bare END to stats is empty stats");
    assertTrue(channel.isActive());
  }

  @Test
  void shouldWriteABatchInOneBufferAndMatchItsRepliesInOrder() {
    CompletableFuture<MemcacheReply> set = new CompletableFuture<>();
    CompletableFuture<MemcacheReply> quiet = new CompletableFuture<>();
    CompletableFuture<MemcacheReply> get = new CompletableFuture<>();
    channel.writeAndFlush(new PendingBatch(List.of(new PendingRequest(set("a", "one", false), set),
        new PendingRequest(set("b", "two", true), quiet),
        new PendingRequest(new MemcacheRequest.Retrieve(false, List.of("b")), get))));
    ByteBuf written = channel.readOutbound();
    assertEquals("set a 0 0 3\r\none\r\nset b 0 0 3 noreply\r\ntwo\r\nget b\r\n",
        written.toString(StandardCharsets.UTF_8));
    written.release();
    assertNull(channel.readOutbound(), "one buffer");
    assertEquals(new MemcacheReply.NoReply(), quiet.join(), "noreply: done once written");
    assertFalse(set.isDone());
    receive(channel, "STORED\r\nVALUE b 0 3\r\ntwo\r\nEND\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), set.join());
    assertEquals("b", ((MemcacheReply.Values) get.join()).values().get(0).key());
    assertTrue(channel.isActive());
  }

  @Test
  void shouldFailEveryRequestOfABatchWhoseWriteFailsAndDropTheConnection() {
    channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
      @Override
      public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ReferenceCountUtil.release(msg);
        promise.setFailure(new IOException("Broken pipe"));
      }
    });
    CompletableFuture<MemcacheReply> first = new CompletableFuture<>();
    CompletableFuture<MemcacheReply> second = new CompletableFuture<>();
    channel.writeAndFlush(new PendingBatch(List.of(new PendingRequest(set("a", "x", false), first),
        new PendingRequest(new MemcacheRequest.Delete("b", false), second))));
    assertFailure("connection closed by " + SERVER, first);
    assertFailure("connection closed by " + SERVER, second);
    assertFalse(channel.isActive(), "the next request opens a new connection");
  }

  @Test
  void shouldCompleteANoreplyRequestWhenWrittenAndNotWaitForItsReply() {
    CompletableFuture<MemcacheReply> quiet = send(channel, set("a", "one", true));
    assertEquals(new MemcacheReply.NoReply(), quiet.join());
    CompletableFuture<MemcacheReply> delete = send(channel, new MemcacheRequest.Delete("a", false));
    assertEquals("set a 0 0 3 noreply\r\none\r\ndelete a\r\n", written(channel));
    receive(channel, "DELETED\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), delete.join());
  }

  @Test
  void shouldNotGiveAFailedNoreplyRequestsErrorToTheNextRequest() {
    assertEquals(new MemcacheReply.NoReply(), send(channel, new MemcacheRequest.Touch("a", 10, true)).join());
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a")));
    receive(channel, "ERROR\r\n");
    assertFailure("reply out of step with requests", get);
    assertFalse(channel.isActive(), "the touch's ERROR cannot be told from the get's: drop, never misattribute");
  }

  @Test
  void shouldAcceptAnErrorWhenNoNoreplyRequestPrecedesIt() {
    send(channel, set("a", "x", true));
    CompletableFuture<MemcacheReply> delete = send(channel, new MemcacheRequest.Delete("a", false));
    CompletableFuture<MemcacheReply> gets = send(channel, new MemcacheRequest.Retrieve(true, List.of("a")));
    receive(channel, "DELETED\r\nERROR\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), delete.join());
    assertEquals(new MemcacheReply.Error(MemcacheReply.ErrorKind.ERROR, ""), gets.join(),
        "the delete's reply proves the noreply set did not fail");
    assertTrue(channel.isActive());
  }

  @Test
  void shouldTimeOutANoreplyWriteThatNeverCompletes() {
    CompletableFuture<MemcacheReply> quiet = new CompletableFuture<>();
    // A server that stops reading: the write's promise never completes.
    channel.pipeline().addFirst(new ChannelOutboundHandlerAdapter() {
      @Override
      public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ReferenceCountUtil.release(msg);
      }
    });
    channel.writeAndFlush(new PendingRequest(set("a", "x", true), quiet));
    assertFalse(quiet.isDone());
    channel.advanceTimeBy(5001, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
    assertFailure("timeout after 5000 ms", quiet);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldGiveErrorsToNonStorageCommandsAsReplies() {
    CompletableFuture<MemcacheReply> gets = send(channel, new MemcacheRequest.Retrieve(true, List.of("a")));
    CompletableFuture<MemcacheReply> incr = send(channel, new MemcacheRequest.Arithmetic(true, "a", 1, false));
    CompletableFuture<MemcacheReply> big = send(channel, set("b", "x", false));
    receive(channel, "ERROR\r\nCLIENT_ERROR cannot increment or decrement non-numeric value\r\n"
        + "SERVER_ERROR object too large for cache\r\n");
    assertEquals(new MemcacheReply.Error(MemcacheReply.ErrorKind.ERROR, ""), gets.join());
    assertEquals(MemcacheReply.ErrorKind.CLIENT_ERROR, ((MemcacheReply.Error) incr.join()).kind());
    assertEquals(MemcacheReply.ErrorKind.SERVER_ERROR, ((MemcacheReply.Error) big.join()).kind(),
        "memcached swallows the data block before SERVER_ERROR: still in step");
    assertTrue(channel.isActive());
  }

  @Test
  void shouldDropTheConnectionWhenAStorageCommandGetsAClientError() {
    CompletableFuture<MemcacheReply> set = send(channel, set("a", "one", false));
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a")));
    receive(channel, "CLIENT_ERROR bad data chunk\r\nERROR\r\n");
    assertFailure("storage command answered CLIENT_ERROR bad data chunk", set);
    assertFailure("storage command answered CLIENT_ERROR bad data chunk", get);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldFailEverythingOutstandingOnAReplyOfTheWrongShape() {
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a")));
    CompletableFuture<MemcacheReply> delete = send(channel, new MemcacheRequest.Delete("a", false));
    receive(channel, "STORED\r\n");
    assertFailure("reply out of step with requests", get);
    assertFailure("reply out of step with requests", delete);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldTreatValuesThatDoNotMatchTheKeysAskedAsOutOfStep() {
    List<String> replies = List.of(
        "VALUE c 0 1\r\nx\r\nEND\r\n",
        "VALUE b 0 1\r\nx\r\nVALUE a 0 1\r\nx\r\nEND\r\n",
        "VALUE a 0 1 5\r\nx\r\nEND\r\n",
        "STAT pid 1\r\nEND\r\n");
    for (String reply : replies) {
      EmbeddedChannel fresh = new EmbeddedChannel();
      ServerLink.configure(fresh.pipeline(), SERVER, CONFIG, new ProtocolErrors());
      CompletableFuture<MemcacheReply> future = new CompletableFuture<>();
      fresh.writeOutbound(new PendingRequest(new MemcacheRequest.Retrieve(false, List.of("a", "b")), future));
      fresh.writeInbound(Unpooled.copiedBuffer(reply, StandardCharsets.UTF_8));
      assertFailure("reply out of step with requests", future);
      fresh.finishAndReleaseAll();
    }
  }

  @Test
  void shouldFailEverythingOutstandingOnAMalformedReply() {
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a")));
    CompletableFuture<MemcacheReply> touch = send(channel, new MemcacheRequest.Touch("a", 10, false));
    receive(channel, "VALUE a 0 zz\r\n");
    assertFailure("malformed reply: bad VALUE line", get);
    assertFailure("malformed reply: bad VALUE line", touch);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldTimeOutEachRequestCountingFromItsWrite() {
    CompletableFuture<MemcacheReply> first = send(channel, new MemcacheRequest.Delete("a", false));
    channel.advanceTimeBy(3, TimeUnit.SECONDS);
    channel.runScheduledPendingTasks();
    receive(channel, "DELETED\r\n");
    CompletableFuture<MemcacheReply> second = send(channel, new MemcacheRequest.Delete("b", false));
    channel.advanceTimeBy(2500, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
    assertTrue(first.isDone() && !second.isDone(), "the second has waited 2.5 s only");
    channel.advanceTimeBy(2600, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
    assertFailure("timeout after 5000 ms", second);
    assertFalse(channel.isActive());
  }

  @Test
  void shouldFailEveryRequestBehindATimedOutOne() {
    CompletableFuture<MemcacheReply> first = send(channel, new MemcacheRequest.Delete("a", false));
    channel.advanceTimeBy(4, TimeUnit.SECONDS);
    CompletableFuture<MemcacheReply> second = send(channel, new MemcacheRequest.Delete("b", false));
    channel.advanceTimeBy(1001, TimeUnit.MILLISECONDS);
    channel.runScheduledPendingTasks();
    assertFailure("timeout after 5000 ms", first);
    assertFailure("timeout after 5000 ms", second);
  }

  @Test
  void shouldFailOutstandingRequestsWhenTheServerClosesEvenInTheMiddleOfAReply() {
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a")));
    CompletableFuture<MemcacheReply> delete = send(channel, new MemcacheRequest.Delete("a", false));
    receive(channel, "VALUE a 0 10\r\nabc");
    channel.close();
    assertFailure("connection closed by " + SERVER, get);
    assertFailure("connection closed by " + SERVER, delete);
  }

  @Test
  void shouldDropTheConnectionOnBytesWhenNoReplyIsAwaited() {
    send(channel, set("a", "x", true));
    receive(channel, "ERR");
    assertFalse(channel.isActive(), "the next request opens a new connection");
  }

  @Test
  void shouldReportASecondReplyReadWithTheFirstAsAProtocolError() {
    CompletableFuture<MemcacheReply> set = send(channel, set("a", "one", false));
    receive(channel, "STORED\r\nSTORED\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), set.join(), "the set's own reply");
    assertFalse(channel.isActive(), "out of step: the next request opens a new connection");
    List<ProtocolErrors.Error> taken = errors.takeUnreported();
    assertEquals(List.of(new ProtocolErrors.Error(SERVER, "STORED\\r\\n")), taken);
    assertEquals("memcache server 127.0.0.1:11211 sent a reply no request was waiting for: \"STORED\\r\\n\"",
        taken.get(0).message());
    assertEquals(List.of(), errors.takeUnreported(), "taken once");
    assertEquals(Map.of(SERVER, new ProtocolErrors.ServerTally(1, 0, 0,
        Map.of(ProtocolErrors.DropCause.OUT_OF_STEP, 1L), "STORED\\r\\n")), errors.byServer());
  }

  @Test
  void shouldNotGiveASecondReplyToTheRequestWrittenWhenTheFirstCompletedInTheSameRead() {
    CompletableFuture<MemcacheReply> next = new CompletableFuture<>();
    CompletableFuture<MemcacheReply> set = send(channel, set("a", "one", false));
    set.thenRun(() -> { // as a virtual user does: its next request, at once
      if (channel.pipeline().get(MemcacheClientHandler.class).usable()) {
        channel.writeAndFlush(new PendingRequest(set("b", "two", false), next));
      } else {
        next.completeExceptionally(new MemcacheFailure("sent on a new connection"));
      }
    });
    receive(channel, "STORED\r\nSTORED\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), set.join());
    assertFailure("sent on a new connection", next);
    assertEquals(List.of(new ProtocolErrors.Error(SERVER, "STORED\\r\\n")), errors.takeUnreported());
  }

  @Test
  void shouldCompleteTheRepliesOfAReadWhenTheReadIsDone() {
    CompletableFuture<MemcacheReply> first = send(channel, set("a", "one", false));
    CompletableFuture<MemcacheReply> second = send(channel, set("b", "two", false));
    channel.pipeline().fireChannelRead(Unpooled.copiedBuffer("STORED\r\nSTORED\r\n", StandardCharsets.UTF_8));
    assertFalse(first.isDone() || second.isDone(), "the read is under way");
    channel.pipeline().fireChannelReadComplete();
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), first.join());
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), second.join());
    assertTrue(channel.isActive());
  }

  @Test
  void shouldReportASecondReplyReadAloneAsTheSameProtocolError() {
    CompletableFuture<MemcacheReply> set = send(channel, set("a", "one", false));
    receive(channel, "STORED\r\n");
    assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.STORED), set.join());
    assertEquals(List.of(), errors.takeUnreported());
    receive(channel, "STORED\r\n");
    assertFalse(channel.isActive());
    assertEquals(List.of(new ProtocolErrors.Error(SERVER, "STORED\\r\\n")), errors.takeUnreported(),
        "the same words as when it comes in the first reply's read");
    assertEquals(Map.of(SERVER, new ProtocolErrors.ServerTally(1, 0, 0,
        Map.of(ProtocolErrors.DropCause.OUT_OF_STEP, 1L), "STORED\\r\\n")), errors.byServer());
  }

  @Test
  void shouldShowAtMostSixtyBytesOfUnexpectedBytesPrintably() {
    send(channel, set("a", "x", true));
    channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {'E', 'R', 'R', 0, (byte) 0xff, '"', '\\'},
        "x".repeat(100).getBytes(StandardCharsets.UTF_8)));
    assertEquals(List.of(new ProtocolErrors.Error(SERVER, "ERR\\x00\\xff\\\"\\\\" + "x".repeat(53))),
        errors.takeUnreported());
  }

  @Test
  void shouldCountDroppedConnectionsButNotTheClientClosingThem() {
    CompletableFuture<MemcacheReply> get = send(channel, new MemcacheRequest.Retrieve(false, List.of("a")));
    receive(channel, "HELLO\r\n");
    assertFailure("malformed reply: unknown reply line", get);
    assertEquals(Map.of(SERVER, new ProtocolErrors.ServerTally(0, 0, 0,
        Map.of(ProtocolErrors.DropCause.MALFORMED_REPLY, 1L), null)), errors.byServer(),
        "a failed request is seen already: no protocol error, but the dropped connection counts");
    EmbeddedChannel closed = new EmbeddedChannel();
    ProtocolErrors none = new ProtocolErrors();
    ServerLink.configure(closed.pipeline(), SERVER, CONFIG, none);
    closed.pipeline().get(MemcacheClientHandler.class).drop(MemcacheFailure.clientClosed());
    assertEquals(Map.of(), none.byServer());
  }

  @Test
  void shouldTellAServerClosingAConnectionFromAnIoErrorOnIt() {
    channel.close();
    EmbeddedChannel reset = new EmbeddedChannel();
    ServerLink.configure(reset.pipeline(), SERVER, CONFIG, errors);
    reset.pipeline().fireExceptionCaught(new IOException("Connection reset by peer"));
    assertEquals(Map.of(SERVER, new ProtocolErrors.ServerTally(0, 0, 0, Map.of(ProtocolErrors.DropCause.SERVER_CLOSED,
        1L, ProtocolErrors.DropCause.IO_ERROR, 1L), null)), errors.byServer());
  }

  static CompletableFuture<MemcacheReply> send(EmbeddedChannel channel, MemcacheRequest request) {
    CompletableFuture<MemcacheReply> future = new CompletableFuture<>();
    channel.writeAndFlush(new PendingRequest(request, future));
    return future;
  }

  static void receive(EmbeddedChannel channel, String text) {
    channel.writeInbound(Unpooled.copiedBuffer(text, StandardCharsets.UTF_8));
  }

  static String written(EmbeddedChannel channel) {
    StringBuilder out = new StringBuilder();
    for (ByteBuf buf = channel.readOutbound(); buf != null; buf = channel.readOutbound()) {
      out.append(buf.toString(StandardCharsets.UTF_8));
      buf.release();
    }
    return out.toString();
  }

  private static MemcacheRequest.Store set(String key, String value, boolean noreply) {
    return new MemcacheRequest.Store(StoreCommand.SET, key, 0, 0, value.getBytes(StandardCharsets.UTF_8), 0, noreply);
  }

  static void assertFailure(String message, CompletableFuture<MemcacheReply> future) {
    assertTrue(future.isDone(), "done");
    CompletionException e = assertThrows(CompletionException.class, future::join);
    assertEquals(message, assertInstanceOf(MemcacheFailure.class, e.getCause()).getMessage());
  }
}
