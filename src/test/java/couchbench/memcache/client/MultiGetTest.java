package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class MultiGetTest {

  private static final InetSocketAddress ONE = InetSocketAddress.createUnresolved("one", 1);
  private static final InetSocketAddress TWO = InetSocketAddress.createUnresolved("two", 2);
  /** Keys starting with "a" live on ONE, the others on TWO. */
  private static final Function<String, InetSocketAddress> ROUTE = key -> key.startsWith("a") ? ONE : TWO;

  private final Map<InetSocketAddress, MemcacheRequest> sent = new HashMap<>();
  private final Map<InetSocketAddress, CompletableFuture<MemcacheReply>> pending = new HashMap<>();

  @Test
  void shouldSplitKeysByServerAndMergeFoundValuesInTheOrderAsked() {
    CompletableFuture<MemcacheReply> reply = send(true, "a1", "b1", "a2", "b2", "a3");
    assertEquals(new MemcacheRequest.Retrieve(true, List.of("a1", "a2", "a3")), sent.get(ONE));
    assertEquals(new MemcacheRequest.Retrieve(true, List.of("b1", "b2")), sent.get(TWO));
    pending.get(TWO).complete(values("b1", "b2"));
    assertFalse(reply.isDone(), "waits for every server");
    pending.get(ONE).complete(values("a1", "a3"));
    assertEquals(List.of("a1", "b1", "b2", "a3"), keys(reply.join()));
  }

  @Test
  void shouldSendAsIsWhenAllKeysLiveOnOneServer() {
    CompletableFuture<MemcacheReply> reply = send(false, "a1", "a2");
    assertEquals(new MemcacheRequest.Retrieve(false, List.of("a1", "a2")), sent.get(ONE));
    assertEquals(1, sent.size());
    pending.get(ONE).complete(values("a2"));
    assertEquals(List.of("a2"), keys(reply.join()));
  }

  @Test
  void shouldFailWithTheFirstFailureAndPassAnErrorReplyOn() {
    CompletableFuture<MemcacheReply> failed = send(false, "a1", "b1");
    pending.get(ONE).completeExceptionally(new MemcacheFailure("timeout after 5000 ms"));
    pending.get(TWO).complete(values("b1"));
    MemcacheClientHandlerTest.assertFailure("timeout after 5000 ms", failed);

    CompletableFuture<MemcacheReply> error = send(false, "a1", "b1");
    pending.get(ONE).complete(values());
    MemcacheReply.Error serverError = new MemcacheReply.Error(MemcacheReply.ErrorKind.SERVER_ERROR, "busy");
    pending.get(TWO).complete(serverError);
    assertEquals(serverError, error.join());
  }

  private CompletableFuture<MemcacheReply> send(boolean withCas, String... keys) {
    sent.clear();
    pending.clear();
    return MultiGet.send(new MemcacheRequest.Retrieve(withCas, List.of(keys)), ROUTE, (server, request) -> {
      sent.put(server, request);
      return pending.computeIfAbsent(server, s -> new CompletableFuture<>());
    });
  }

  private static MemcacheReply values(String... keys) {
    List<MemcacheReply.Value> values = new ArrayList<>();
    for (String key : keys) {
      values.add(new MemcacheReply.Value(key, 0, new byte[0], 1));
    }
    return new MemcacheReply.Values(values);
  }

  private static List<String> keys(MemcacheReply reply) {
    return ((MemcacheReply.Values) reply).values().stream().map(MemcacheReply.Value::key).toList();
  }
}
