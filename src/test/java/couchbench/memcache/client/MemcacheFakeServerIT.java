package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.client.FakeMemcache.Answer;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The client against a fake server that misbehaves in every way: each failure is grouped, quick, and healed. */
class MemcacheFakeServerIT {

  private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(500);
  /** A failure must come within the request timeout, plus some slack for a slow machine. */
  private static final Duration WITHIN = Duration.ofMillis(2500);
  private static final MemcacheRequest DELETE = new MemcacheRequest.Delete("k", false);
  private static final MemcacheRequest GET = new MemcacheRequest.Retrieve(false, List.of("k"));

  private static EventLoopGroup group;

  @BeforeAll
  static void startEventLoops() {
    group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
  }

  @AfterAll
  static void stopEventLoops() {
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void shouldFailGarbageAsMalformedThenReconnect() throws Exception {
    assertFailsThenHeals(line -> Answer.reply("HELLO THERE\r\n"), DELETE, "malformed reply: unknown reply line");
  }

  @Test
  void shouldFailATruncatedValueAsAClosedConnectionThenReconnect() throws Exception {
    assertFailsThenHeals(line -> Answer.replyAndClose("VALUE k 0 10\r\nabc"), GET, "connection closed by %s");
  }

  @Test
  void shouldFailAnOversizedLengthBeforeReadingItThenReconnect() throws Exception {
    assertFailsThenHeals(line -> Answer.reply("VALUE k 0 999999999\r\n"), GET,
        "malformed reply: value length: 999999999 (expected: <= 67108864)");
  }

  @Test
  void shouldTimeOutWhenNothingComesThenReconnect() throws Exception {
    assertFailsThenHeals(line -> Answer.nothing(), DELETE, "timeout after 500 ms");
  }

  @Test
  void shouldFailAReplyOfTheWrongShapeThenReconnect() throws Exception {
    assertFailsThenHeals(line -> Answer.reply("STORED\r\n"), GET, "reply out of step with requests");
  }

  @Test
  void shouldFailAStorageCommandAnsweredErrorThenReconnect() throws Exception {
    MemcacheRequest cas = new MemcacheRequest.Store(MemcacheRequest.StoreCommand.CAS, "k", 0, 0,
        "v".getBytes(StandardCharsets.UTF_8), 1, false);
    // What MemcacheDB, which has no cas, answers: it then reads the data block as a command of its own.
    assertFailsThenHeals(line -> Answer.reply("ERROR\r\nERROR\r\n"), cas, "storage command answered ERROR");
  }

  @Test
  void shouldFailEveryPipelinedRequestWhenTheServerCloses() throws Exception {
    try (FakeMemcache fake = new FakeMemcache(line -> line.startsWith("delete k3")
            ? Answer.replyAndClose("DELETED\r\n") : Answer.reply("DELETED\r\n"));
        MemcacheClient client = client(fake.address())) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      List<CompletableFuture<MemcacheReply>> replies = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        replies.add(connections.send(new MemcacheRequest.Delete("k" + i, false)));
      }
      for (int i = 0; i < 8; i++) {
        if (i <= 3) {
          assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), Await.reply(replies.get(i)));
        } else {
          Await.failure("connection closed by " + name(fake), replies.get(i), WITHIN);
        }
      }
    }
  }

  @Test
  void shouldMatchRepliesInOrderWhenUsersShareAConnection() throws Exception {
    int perConnection = 16;
    // Each get is answered with its own key as the value: a reply given to the wrong request shows.
    try (FakeMemcache fake = new FakeMemcache(line -> {
          String key = line.substring("get ".length());
          return Answer.reply("VALUE " + key + " 0 " + key.length() + "\r\n" + key + "\r\nEND\r\n");
        });
        MemcacheClient client = new MemcacheClient(
            MemcacheClientConfig.of(List.of(fake.address())).withUsersPerConnection(perConnection),
            group, NioSocketChannel::new)) {
      EventLoop loop = group.next();
      List<MemcacheConnections> users = new ArrayList<>();
      for (int user = 0; user < perConnection; user++) {
        users.add(client.connectionsFor(loop));
      }
      assertEquals(1, users.stream().distinct().count(), "those users share one set of connections");
      List<CompletableFuture<MemcacheReply>> replies = new ArrayList<>();
      for (int round = 0; round < 10; round++) {
        for (int user = 0; user < perConnection; user++) {
          replies.add(users.get(user).send(new MemcacheRequest.Retrieve(false, List.of("k" + user + "-" + round))));
        }
      }
      for (int i = 0; i < replies.size(); i++) {
        String key = "k" + (i % perConnection) + "-" + (i / perConnection);
        assertEquals(key, new String(((MemcacheReply.Values) Await.reply(replies.get(i))).values().get(0).data(),
            StandardCharsets.UTF_8), "reply " + i + " is its own request's");
      }
      assertEquals(1, fake.connections(), "up to " + perConnection + " requests in flight on one connection");
      MemcacheConnections next = client.connectionsFor(loop);
      assertNotSame(users.get(0), next, "user " + (perConnection + 1) + " gets connections of its own");
      Await.reply(next.send(GET));
      assertEquals(2, fake.connections());
    }
  }

  @Test
  void shouldSendABatchInOneWriteAndMatchEachReplyToItsOwnRequestABadKeyFailingAlone() throws Exception {
    // Each get is answered with its own key as the value: a reply given to the wrong request shows.
    try (FakeMemcache fake = new FakeMemcache(line -> {
          String key = line.substring("get ".length());
          return Answer.reply("VALUE " + key + " 0 " + key.length() + "\r\n" + key + "\r\nEND\r\n");
        });
        MemcacheClient client = client(fake.address())) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      for (int round = 0; round < 10; round++) {
        List<MemcacheRequest> batch = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
          batch.add(new MemcacheRequest.Retrieve(false, List.of(i == 7 ? "bad key" : "k" + round + "-" + i)));
        }
        List<CompletableFuture<MemcacheReply>> replies = connections.sendAll(batch);
        assertEquals(16, replies.size());
        for (int i = 0; i < 16; i++) {
          if (i == 7) {
            Await.failure("invalid key: key contains whitespace or control characters", replies.get(i), WITHIN);
            continue;
          }
          String key = "k" + round + "-" + i;
          assertEquals(key, new String(((MemcacheReply.Values) Await.reply(replies.get(i))).values().get(0).data(),
              StandardCharsets.UTF_8), "round " + round + ", reply " + i + " is its own request's");
        }
      }
      assertEquals(1, fake.connections(), "every batch on the user's one connection");
    }
  }

  @Test
  void shouldFailTheRestOfABatchOnceEachWhenTheServerClosesInIt() throws Exception {
    try (FakeMemcache fake = new FakeMemcache(line -> line.startsWith("delete k3")
            ? Answer.replyAndClose("DELETED\r\n") : Answer.reply("DELETED\r\n"));
        MemcacheClient client = client(fake.address())) {
      List<MemcacheRequest> batch = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        batch.add(new MemcacheRequest.Delete("k" + i, false));
      }
      AtomicInteger outcomes = new AtomicInteger();
      List<CompletableFuture<MemcacheReply>> replies = client.connectionsFor(group.next()).sendAll(batch);
      replies.forEach(reply -> reply.whenComplete((value, error) -> outcomes.incrementAndGet()));
      for (int i = 0; i < 8; i++) {
        if (i <= 3) {
          assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), Await.reply(replies.get(i)));
        } else {
          Await.failure("connection closed by " + name(fake), replies.get(i), WITHIN);
        }
      }
      waitUntil(() -> outcomes.get() >= 8);
      assertEquals(8, outcomes.get(), "one outcome per request, none twice");
    }
  }

  @Test
  void shouldFailOnlyTheGetsAnsweredErrorInABatchAndStayInStep() throws Exception {
    // MemcacheDB has no gets: it answers ERROR, and the connection goes on.
    try (FakeMemcache fake = new FakeMemcache(line -> line.startsWith("gets ") ? Answer.reply("ERROR\r\n")
            : Answer.reply("VALUE k 0 1\r\nv\r\nEND\r\n"));
        MemcacheClient client = client(fake.address())) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      List<MemcacheRequest> batch = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        batch.add(new MemcacheRequest.Retrieve(i % 3 == 1, List.of("k")));
      }
      List<CompletableFuture<MemcacheReply>> replies = connections.sendAll(batch);
      for (int i = 0; i < 6; i++) {
        if (i % 3 == 1) {
          assertEquals(new MemcacheReply.Error(MemcacheReply.ErrorKind.ERROR, ""), Await.reply(replies.get(i)),
              "reply " + i + ": the server's own words, for the action to fail the request with");
        } else {
          assertEquals(1, ((MemcacheReply.Values) Await.reply(replies.get(i))).values().size(), "reply " + i);
        }
      }
      assertEquals(1, fake.connections(), "the connection stayed in step");
    }
  }

  @Test
  void shouldFailEveryRequestInFlightOnASharedConnectionOnceWhenItTimesOut() throws Exception {
    int perConnection = 4;
    try (FakeMemcache fake = new FakeMemcache(line -> Answer.nothing());
        MemcacheClient client = new MemcacheClient(MemcacheClientConfig.of(List.of(fake.address()))
            .withTimeouts(Duration.ofSeconds(1), REQUEST_TIMEOUT).withUsersPerConnection(perConnection), group,
            NioSocketChannel::new)) {
      EventLoop loop = group.next();
      AtomicInteger outcomes = new AtomicInteger();
      List<CompletableFuture<MemcacheReply>> replies = new ArrayList<>();
      for (int user = 0; user < perConnection; user++) {
        CompletableFuture<MemcacheReply> reply = client.connectionsFor(loop).send(DELETE);
        reply.whenComplete((value, error) -> outcomes.incrementAndGet());
        replies.add(reply);
      }
      for (CompletableFuture<MemcacheReply> reply : replies) {
        Await.failure("timeout after 500 ms", reply, WITHIN);
      }
      waitUntil(() -> outcomes.get() >= perConnection);
      assertEquals(perConnection, outcomes.get(), "one outcome per request, none twice");
      assertEquals(1, fake.connections());
    }
  }

  @Test
  void shouldCloseASharedConnectionWhenItsLastUserLeaves() throws Exception {
    try (FakeMemcache fake = new FakeMemcache(line -> Answer.reply("DELETED\r\n"));
        MemcacheClient client = new MemcacheClient(
            MemcacheClientConfig.of(List.of(fake.address())).withUsersPerConnection(2), group, NioSocketChannel::new)) {
      EventLoop loop = group.next();
      MemcacheConnections first = client.connectionsFor(loop);
      MemcacheConnections second = client.connectionsFor(loop);
      Await.reply(first.send(DELETE));
      first.close();
      assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), Await.reply(second.send(DELETE)),
          "the other user's connection is still open");
      assertEquals(1, fake.connections());
      second.close();
      waitUntil(() -> fake.openConnections() == 0);
    }
  }

  @Test
  void shouldDropTheConnectionWhenBytesComeWithNothingAsked() throws Exception {
    try (FakeMemcache fake = new FakeMemcache(line -> line.startsWith("get") ? Answer.reply("END\r\nSTORED\r\n")
            : line.startsWith("set") ? Answer.reply("STORED\r\n") : Answer.reply("DELETED\r\n"));
        MemcacheClient client = client(fake.address())) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      assertEquals(new MemcacheReply.Values(List.of()), Await.reply(connections.send(GET)), "its own reply");
      // The extra STORED, read with the END, dropped that connection: the next request opens another.
      assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), Await.reply(connections.send(DELETE)));
      assertEquals(2, fake.connections());
      // A noreply set answered anyway: the answer drops the connection too.
      MemcacheRequest quiet = new MemcacheRequest.Store(MemcacheRequest.StoreCommand.SET, "k", 0, 0, new byte[1], 0,
          true);
      assertEquals(new MemcacheReply.NoReply(), Await.reply(connections.send(quiet)));
      waitUntil(() -> fake.openConnections() == 0); // the answer to it came, and dropped the connection
      assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), Await.reply(connections.send(DELETE)));
      assertEquals(3, fake.connections());
    }
  }

  @Test
  void shouldFailAtOnceWhenTheConnectionIsRefused() throws Exception {
    InetSocketAddress nobody;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      nobody = new InetSocketAddress("127.0.0.1", socket.getLocalPort());
    }
    try (MemcacheClient client = client(nobody)) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      Await.failure("connection refused: 127.0.0.1:" + nobody.getPort(), connections.send(DELETE), WITHIN);
      Await.failure("connection refused: 127.0.0.1:" + nobody.getPort(), connections.send(DELETE), WITHIN);
    }
  }

  @Test
  void shouldFailOutstandingRequestsWhenTheClientCloses() throws Exception {
    try (FakeMemcache fake = new FakeMemcache(line -> Answer.nothing())) {
      MemcacheClient client = new MemcacheClient(MemcacheClientConfig.of(List.of(fake.address())), group,
          NioSocketChannel::new);
      CompletableFuture<MemcacheReply> outstanding = client.connectionsFor(group.next()).send(DELETE);
      waitUntil(() -> fake.connections() == 1);
      client.close();
      Await.failure("client closed", outstanding, WITHIN);
    }
  }

  @Test
  void shouldFailABadKeyAtOnceWithoutConnecting() throws Exception {
    try (FakeMemcache fake = new FakeMemcache(line -> Answer.reply("DELETED\r\n"));
        MemcacheClient client = client(fake.address())) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      CompletableFuture<MemcacheReply> bad = connections.send(new MemcacheRequest.Delete("a key", false));
      assertTrue(bad.isCompletedExceptionally(), "failed before send returned");
      Await.failure("invalid key: key contains whitespace or control characters", bad, WITHIN);
      Thread.sleep(100); // that nothing connects has no moment to wait for: a connect would come within this
      assertEquals(0, fake.connections());
    }
  }

  /** The request fails with the message (%s: the server) within the timeout; the next request reconnects. */
  private static void assertFailsThenHeals(Function<String, Answer> misbehaviour, MemcacheRequest request,
      String message) throws Exception {
    try (FakeMemcache fake = new FakeMemcache(misbehaviour); MemcacheClient client = client(fake.address())) {
      MemcacheConnections connections = client.connectionsFor(group.next());
      long start = System.nanoTime();
      Await.failure(String.format(message, name(fake)), connections.send(request), WITHIN);
      long millis = (System.nanoTime() - start) / 1_000_000;
      fake.script(line -> Answer.reply("DELETED\r\n"));
      assertEquals(new MemcacheReply.Status(MemcacheReply.StatusWord.DELETED), Await.reply(connections.send(DELETE)),
          "after failing in " + millis + " ms, the next request works on a new connection");
      assertEquals(2, fake.connections());
      connections.close();
    }
  }

  private static void waitUntil(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within 5 s");
      }
      Thread.sleep(20);
    }
  }

  private static MemcacheClient client(InetSocketAddress server) {
    return new MemcacheClient(MemcacheClientConfig.of(List.of(server))
        .withTimeouts(Duration.ofSeconds(1), REQUEST_TIMEOUT), group, NioSocketChannel::new);
  }

  private static String name(FakeMemcache fake) {
    return "127.0.0.1:" + fake.address().getPort();
  }
}
