package couchbench.memcache.client;

import couchbench.memcache.codec.MemcacheReply;
import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MetaRequest;
import java.util.concurrent.CompletableFuture;

/** A request on its way to one server, with the future its reply completes. */
final class PendingRequest {

  /** The request; a meta one gets its opaque tag when it is written. */
  private MemcacheRequest request;
  private final CompletableFuture<MemcacheReply> future;
  /** The event loop's nanoTime when it was handed to the channel; its timeout counts from there. */
  private long writtenAt;
  /** Whether noreply requests were written since the request before this one. */
  private boolean afterNoreply;
  /** Its reply, matched and not yet handed to the future. */
  private MemcacheReply answer;

  PendingRequest(MemcacheRequest request, CompletableFuture<MemcacheReply> future) {
    this.request = request;
    this.future = future;
  }

  MemcacheRequest request() {
    return request;
  }

  /** @param opaque the tag its reply will carry; for a meta request other than mn */
  void tag(int opaque) {
    request = ((MetaRequest) request).withOpaque(opaque);
  }

  /** @return whether it is a quiet meta request: its reply may be left out, when it succeeded */
  boolean quiet() {
    return request instanceof MetaRequest meta && meta.quiet();
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

  /** @param reply its reply, for {@link #completeAnswer} */
  void answer(MemcacheReply reply) {
    answer = reply;
  }

  void completeAnswer() {
    MemcacheReply reply = answer;
    answer = null;
    future.complete(reply);
  }

  void fail(MemcacheFailure failure) {
    future.completeExceptionally(failure);
  }
}
