package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import java.util.concurrent.CompletableFuture;

/** A request on its way to one server, with the future its reply completes. */
final class PendingRequest {

  private final MemcacheRequest request;
  private final CompletableFuture<MemcacheReply> future;
  /** The event loop's nanoTime when it was handed to the channel; its timeout counts from there. */
  private long writtenAt;
  /** Whether noreply requests were written since the request before this one. */
  private boolean afterNoreply;

  PendingRequest(MemcacheRequest request, CompletableFuture<MemcacheReply> future) {
    this.request = request;
    this.future = future;
  }

  MemcacheRequest request() {
    return request;
  }

  long writtenAt() {
    return writtenAt;
  }

  void markWritten(long nanoTime, boolean afterNoreply) {
    this.writtenAt = nanoTime;
    this.afterNoreply = afterNoreply;
  }

  /** @return whether an error reply might belong to a noreply request written before this one */
  boolean afterNoreply() {
    return afterNoreply;
  }

  void complete(MemcacheReply reply) {
    future.complete(reply);
  }

  void fail(MemcacheFailure failure) {
    future.completeExceptionally(failure);
  }
}
