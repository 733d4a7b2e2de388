package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;

/** A get of several keys over several servers: one get per server, the values merged back in key order. */
final class MultiGet {

  private MultiGet() {}

  static CompletableFuture<MemcacheReply> send(MemcacheRequest.Retrieve retrieve,
      Function<String, InetSocketAddress> route,
      BiFunction<InetSocketAddress, MemcacheRequest, CompletableFuture<MemcacheReply>> sender) {
    Map<InetSocketAddress, List<String>> keysByServer = new LinkedHashMap<>();
    for (String key : retrieve.keys()) {
      keysByServer.computeIfAbsent(route.apply(key), server -> new ArrayList<>()).add(key);
    }
    if (keysByServer.size() == 1) {
      return sender.apply(keysByServer.keySet().iterator().next(), retrieve);
    }
    Map<InetSocketAddress, CompletableFuture<MemcacheReply>> parts = new LinkedHashMap<>();
    keysByServer.forEach((server, keys) ->
        parts.put(server, sender.apply(server, new MemcacheRequest.Retrieve(retrieve.withCas(), keys))));
    CompletableFuture<MemcacheReply> merged = new CompletableFuture<>();
    CompletableFuture.allOf(parts.values().toArray(CompletableFuture[]::new)).whenComplete((ignored, error) -> {
      try {
        merged.complete(merge(retrieve, route, parts));
      } catch (MemcacheFailure failure) {
        merged.completeExceptionally(failure);
      }
    });
    return merged;
  }

  /** The first failure or error reply wins; otherwise each server's values, walked in the order of the keys. */
  private static MemcacheReply merge(MemcacheRequest.Retrieve retrieve, Function<String, InetSocketAddress> route,
      Map<InetSocketAddress, CompletableFuture<MemcacheReply>> parts) {
    Map<InetSocketAddress, List<MemcacheReply.Value>> found = new HashMap<>();
    for (Map.Entry<InetSocketAddress, CompletableFuture<MemcacheReply>> part : parts.entrySet()) {
      Throwable error = part.getValue().handle((reply, e) -> e).join();
      if (error != null) {
        throw error instanceof MemcacheFailure failure ? failure : new MemcacheFailure(String.valueOf(error));
      }
      MemcacheReply reply = part.getValue().join();
      if (!(reply instanceof MemcacheReply.Values values)) {
        return reply;
      }
      found.put(part.getKey(), values.values());
    }
    Map<InetSocketAddress, Integer> next = new HashMap<>();
    List<MemcacheReply.Value> merged = new ArrayList<>();
    for (String key : retrieve.keys()) {
      InetSocketAddress server = route.apply(key);
      List<MemcacheReply.Value> values = found.get(server);
      int at = next.getOrDefault(server, 0);
      if (at < values.size() && values.get(at).key().equals(key)) {
        merged.add(values.get(at));
        next.put(server, at + 1);
      }
    }
    return new MemcacheReply.Values(merged);
  }
}
