package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.Prerequisites;
import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheReply.StatusWord;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import couchbench.targets.MemcachedServer;
import io.gatling.netty.util.Transports;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every command against a real memcached 1.6, pipelined, with big values, bad keys and a server killed. */
class MemcachedClientIT {

  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

  private static EventLoopGroup group;
  private static MemcachedServer memcached;
  private static MemcacheClient client;
  private static MemcacheConnections connections;

  @BeforeAll
  static void start() {
    group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());
    memcached = MemcachedServer.start();
    client = new MemcacheClient(MemcacheClientConfig.of(List.of(address(memcached)))
        .withTimeouts(Duration.ofSeconds(2), REQUEST_TIMEOUT), group, NioSocketChannel::new);
    connections = client.connectionsFor(group.next());
  }

  @AfterAll
  static void stop() {
    client.close();
    memcached.close();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }

  @Test
  void shouldRunEveryStorageCommand() {
    assertEquals(status(StatusWord.STORED), send(store(StoreCommand.SET, "s:1", "one", 0)));
    assertEquals(status(StatusWord.NOT_STORED), send(store(StoreCommand.ADD, "s:1", "two", 0)));
    assertEquals(status(StatusWord.STORED), send(store(StoreCommand.ADD, "s:2", "two", 0)));
    assertEquals(status(StatusWord.STORED), send(store(StoreCommand.REPLACE, "s:1", "uno", 0)));
    assertEquals(status(StatusWord.NOT_STORED), send(store(StoreCommand.REPLACE, "s:none", "x", 0)));
    assertEquals(status(StatusWord.STORED), send(store(StoreCommand.APPEND, "s:1", ">", 0)));
    assertEquals(status(StatusWord.STORED), send(store(StoreCommand.PREPEND, "s:1", "<", 0)));
    assertEquals(status(StatusWord.NOT_STORED), send(store(StoreCommand.APPEND, "s:none", "x", 0)));
    assertEquals("<uno>", text(single(send(get("s:1")))));

    MemcacheReply.Value withCas = single(send(new MemcacheRequest.Retrieve(true, List.of("s:1"))));
    assertTrue(withCas.casUnique() > 0);
    assertEquals(status(StatusWord.STORED), send(store(StoreCommand.CAS, "s:1", "new", withCas.casUnique())));
    assertEquals(status(StatusWord.EXISTS), send(store(StoreCommand.CAS, "s:1", "old", withCas.casUnique())));
    assertEquals(status(StatusWord.NOT_FOUND), send(store(StoreCommand.CAS, "s:none", "x", 1)));
    assertEquals("new", text(single(send(get("s:1")))));
  }

  @Test
  void shouldRunRetrievalDeleteArithmeticTouchAndStats() {
    send(store(StoreCommand.SET, "r:a", "A", 0));
    send(store(StoreCommand.SET, "r:c", "C", 0));
    MemcacheReply.Values values = assertInstanceOf(MemcacheReply.Values.class,
        send(new MemcacheRequest.Retrieve(false, List.of("r:a", "r:b", "r:c"))));
    assertEquals(List.of("r:a", "r:c"), values.values().stream().map(MemcacheReply.Value::key).toList());
    assertEquals(new MemcacheReply.Values(List.of()), send(get("r:none")));

    assertEquals(status(StatusWord.DELETED), send(new MemcacheRequest.Delete("r:a", false)));
    assertEquals(status(StatusWord.NOT_FOUND), send(new MemcacheRequest.Delete("r:a", false)));

    send(store(StoreCommand.SET, "r:n", "10", 0));
    assertEquals(new MemcacheReply.Number(15), send(new MemcacheRequest.Arithmetic(true, "r:n", 5, false)));
    assertEquals(new MemcacheReply.Number(0), send(new MemcacheRequest.Arithmetic(false, "r:n", 100, false)),
        "decr stops at 0");
    assertEquals(new MemcacheReply.Number(-1), send(new MemcacheRequest.Arithmetic(true, "r:n", -1, false)),
        "an unsigned delta of 2^64-1 gives 2^64-1");
    assertEquals(status(StatusWord.NOT_FOUND), send(new MemcacheRequest.Arithmetic(true, "r:none", 1, false)));
    MemcacheReply nonNumeric = send(new MemcacheRequest.Arithmetic(true, "r:c", 1, false));
    assertEquals(MemcacheReply.ErrorKind.CLIENT_ERROR, ((MemcacheReply.Error) nonNumeric).kind());
    assertEquals("C", text(single(send(get("r:c")))), "a CLIENT_ERROR to incr leaves the connection in step");

    assertEquals(status(StatusWord.TOUCHED), send(new MemcacheRequest.Touch("r:c", 100, false)));
    assertEquals(status(StatusWord.NOT_FOUND), send(new MemcacheRequest.Touch("r:none", 100, false)));

    Map<String, String> stats = ((MemcacheReply.StatsLines) send(new MemcacheRequest.Stats(""))).stats();
    assertEquals(String.valueOf(memcached.pid()), stats.get("pid"));
    assertTrue(((MemcacheReply.StatsLines) send(new MemcacheRequest.Stats("items"))).stats().keySet().stream()
        .allMatch(name -> name.startsWith("items:")));
    assertEquals(MemcacheReply.ErrorKind.ERROR,
        ((MemcacheReply.Error) send(new MemcacheRequest.Stats("nosuchgroup"))).kind());
  }

  @Test
  void shouldSendNoreplyRequestsWithoutWaitingAndStayInStep() {
    MemcacheRequest.Store quiet = new MemcacheRequest.Store(StoreCommand.SET, "q:1", 3, 0, bytes("7"), 0, true);
    assertEquals(new MemcacheReply.NoReply(), send(quiet));
    assertEquals(new MemcacheReply.NoReply(), send(new MemcacheRequest.Arithmetic(true, "q:1", 5, true)));
    assertEquals(new MemcacheReply.NoReply(), send(new MemcacheRequest.Touch("q:1", 50, true)));
    MemcacheReply.Value value = single(send(get("q:1")));
    assertEquals("12", text(value));
    assertEquals(3, value.flags());
    assertEquals(new MemcacheReply.NoReply(), send(new MemcacheRequest.Delete("q:1", true)));
    assertEquals(new MemcacheReply.Values(List.of()), send(get("q:1")));
  }

  @Test
  void shouldStoreAndReadBackAOneMegabyteValueAndSurviveATooLargeOne() {
    byte[] big = new byte[1_000_000];
    new Random(5).nextBytes(big);
    assertEquals(status(StatusWord.STORED), send(new MemcacheRequest.Store(StoreCommand.SET, "big", 0, 0, big, 0, false)));
    assertArrayEquals(big, single(send(get("big"))).data());
    byte[] tooBig = new byte[2 * 1024 * 1024];
    MemcacheReply refused = send(new MemcacheRequest.Store(StoreCommand.SET, "huge", 0, 0, tooBig, 0, false));
    assertEquals(new MemcacheReply.Error(MemcacheReply.ErrorKind.SERVER_ERROR, "object too large for cache"), refused);
    assertArrayEquals(big, single(send(get("big"))).data(), "memcached read the data block: still in step");
  }

  @Test
  void shouldMatchAThousandPipelinedRequestsToTheirReplies() {
    List<CompletableFuture<MemcacheReply>> sets = new ArrayList<>();
    List<CompletableFuture<MemcacheReply>> gets = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      byte[] value = bytes("value-" + i + "-" + "x".repeat(i % 50));
      sets.add(connections.send(new MemcacheRequest.Store(StoreCommand.SET, "p:" + i, i, 0, value, 0, false)));
      gets.add(connections.send(get("p:" + i)));
    }
    for (int i = 0; i < 1000; i++) {
      assertEquals(status(StatusWord.STORED), Await.reply(sets.get(i)));
      MemcacheReply.Value value = single(Await.reply(gets.get(i)));
      assertEquals("p:" + i, value.key());
      assertEquals(i, value.flags());
      assertEquals("value-" + i + "-" + "x".repeat(i % 50), text(value));
    }
  }

  @Test
  void shouldSendNothingAtAllForABadKey() {
    Map<String, String> before = counters();
    MemcacheConnections fresh = client.connectionsFor(group.next());
    List<MemcacheRequest> bad = List.of(
        get("has space"),
        new MemcacheRequest.Retrieve(false, List.of("fine", "x".repeat(251))),
        new MemcacheRequest.Store(StoreCommand.SET, "line\r\nflush_all", 0, 0, bytes("x"), 0, false),
        new MemcacheRequest.Store(StoreCommand.SET, "", 0, 0, bytes("x"), 0, true),
        new MemcacheRequest.Delete("tab\tkey", false),
        new MemcacheRequest.Arithmetic(true, "x".repeat(300), 1, false),
        new MemcacheRequest.Touch("nul\0key", 1, false));
    List<String> messages = new ArrayList<>();
    for (MemcacheRequest request : bad) {
      CompletableFuture<MemcacheReply> reply = fresh.send(request);
      assertTrue(reply.isCompletedExceptionally(), "fails before send returns");
      try {
        reply.get();
      } catch (ExecutionException | InterruptedException e) {
        messages.add(e.getCause().getMessage());
      }
    }
    assertEquals(List.of("invalid key: key contains whitespace or control characters",
        "invalid key: key longer than 250 bytes",
        "invalid key: key contains whitespace or control characters",
        "invalid key: empty key",
        "invalid key: key contains whitespace or control characters",
        "invalid key: key longer than 250 bytes",
        "invalid key: key contains whitespace or control characters"), messages);
    fresh.close();
    assertEquals(before, counters(), "memcached saw no command and no new connection");
  }

  @Test
  void shouldShareOnePoolAmongAllUsersWhenAsked() {
    long connectionsBefore = Long.parseLong(counters().get("total_connections"));
    try (MemcacheClient pooled = new MemcacheClient(MemcacheClientConfig.of(List.of(address(memcached)))
        .withSharedPool(2), group, NioSocketChannel::new)) {
      MemcacheConnections one = pooled.connectionsFor(group.next());
      MemcacheConnections other = pooled.connectionsFor(group.next());
      assertSame(one, other);
      List<CompletableFuture<MemcacheReply>> replies = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        replies.add((i % 2 == 0 ? one : other).send(store(StoreCommand.SET, "pool:" + i, "v" + i, 0)));
      }
      replies.forEach(reply -> assertEquals(status(StatusWord.STORED), Await.reply(reply)));
      one.close(); // a no-op on the shared pool
      assertEquals("v7", text(single(Await.reply(other.send(get("pool:7"))))));
    }
    assertEquals(connectionsBefore + 2, Long.parseLong(counters().get("total_connections")), "two pooled connections");
  }

  @Test
  void shouldFailEveryOutstandingRequestPromptlyWhenTheServerIsKilled() throws Exception {
    MemcachedServer doomed = MemcachedServer.start();
    try (MemcacheClient doomedClient = new MemcacheClient(MemcacheClientConfig.of(List.of(address(doomed)))
        .withTimeouts(Duration.ofSeconds(1), REQUEST_TIMEOUT), group, NioSocketChannel::new)) {
      MemcacheConnections doomedConnections = doomedClient.connectionsFor(group.next());
      byte[] value = new byte[500_000];
      Await.reply(doomedConnections.send(new MemcacheRequest.Store(StoreCommand.SET, "v", 0, 0, value, 0, false)));
      List<CompletableFuture<MemcacheReply>> replies = new ArrayList<>();
      for (int i = 0; i < 2000; i++) {
        replies.add(doomedConnections.send(get("v"))); // a gigabyte of replies: still coming when it dies
      }
      long start = System.nanoTime();
      doomed.close();
      int failed = 0;
      for (CompletableFuture<MemcacheReply> reply : replies) {
        try {
          assertEquals(value.length, single(reply.get(REQUEST_TIMEOUT.toMillis() + 2000, TimeUnit.MILLISECONDS))
              .data().length);
        } catch (ExecutionException e) {
          assertEquals("connection closed by " + doomed.address(),
              assertInstanceOf(MemcacheFailure.class, e.getCause()).getMessage());
          failed++;
        }
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      assertTrue(failed > 0, "some requests were still outstanding");
      assertTrue(millis < REQUEST_TIMEOUT.toMillis() + 2000, "all done in " + millis + " ms");
      Await.failure("connection refused: " + doomed.address(), doomedConnections.send(get("v")),
          Duration.ofSeconds(3));
    } finally {
      doomed.close();
    }
  }

  @Test
  void shouldRunOnGatlingsNativeEventLoopsWithItsChannelFactory() {
    Prerequisites.require(Epoll.isAvailable(), "no epoll (Linux's native transport): run on Linux");
    EventLoopGroup epoll = Transports.newEventLoopGroup(true, false, 1, "memcache-it-epoll");
    try (MemcacheClient gatlingStyle = new MemcacheClient(MemcacheClientConfig.of(List.of(address(memcached))), epoll,
        Transports.newSocketChannelFactory(true, false))) {
      MemcacheConnections user = gatlingStyle.connectionsFor(epoll.next());
      assertEquals(status(StatusWord.STORED), Await.reply(user.send(store(StoreCommand.SET, "epoll", "yes", 0))));
      assertEquals("yes", text(single(Await.reply(user.send(get("epoll"))))));
    } finally {
      epoll.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
  }

  @Test
  void shouldFailPromptlyWhenTheChannelTypeDoesNotFitTheEventLoop() {
    Prerequisites.require(Epoll.isAvailable(), "no epoll (Linux's native transport): run on Linux");
    try (MemcacheClient mismatched = new MemcacheClient(MemcacheClientConfig.of(List.of(address(memcached))), group,
        Transports.newSocketChannelFactory(true, false))) {
      Await.failure("cannot connect to " + memcached.address() + ": IllegalStateException incompatible event loop type",
          mismatched.connectionsFor(group.next()).send(get("k")), Duration.ofSeconds(3));
    }
  }

  /** memcached's command counters and connection counts: what a request that was sent would change. */
  private static Map<String, String> counters() {
    Map<String, String> stats = ((MemcacheReply.StatsLines) send(new MemcacheRequest.Stats(""))).stats();
    Map<String, String> counters = new TreeMap<>();
    stats.forEach((name, value) -> {
      if (name.startsWith("cmd_") || name.endsWith("_misses") || name.endsWith("_hits")
          || name.equals("curr_connections") || name.equals("total_connections")) {
        counters.put(name, value);
      }
    });
    assertNotEquals(Map.of(), counters);
    return counters;
  }

  private static MemcacheReply send(MemcacheRequest request) {
    return Await.reply(connections.send(request));
  }

  private static MemcacheRequest.Retrieve get(String key) {
    return new MemcacheRequest.Retrieve(false, List.of(key));
  }

  private static MemcacheRequest.Store store(StoreCommand command, String key, String value, long cas) {
    return new MemcacheRequest.Store(command, key, 0, 0, bytes(value), cas, false);
  }

  private static MemcacheReply status(StatusWord word) {
    return new MemcacheReply.Status(word);
  }

  private static MemcacheReply.Value single(MemcacheReply reply) {
    List<MemcacheReply.Value> values = assertInstanceOf(MemcacheReply.Values.class, reply).values();
    assertEquals(1, values.size(), "one value");
    return values.get(0);
  }

  private static String text(MemcacheReply.Value value) {
    return new String(value.data(), StandardCharsets.UTF_8);
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static InetSocketAddress address(MemcachedServer server) {
    return new InetSocketAddress("127.0.0.1", server.port());
  }
}
