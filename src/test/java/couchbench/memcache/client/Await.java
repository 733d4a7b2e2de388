package couchbench.memcache.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheReply;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waiting on replies in integration tests, never forever. */
final class Await {

  private Await() {}

  static MemcacheReply reply(CompletableFuture<MemcacheReply> future) {
    try {
      return future.get(10, TimeUnit.SECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new AssertionError("no reply: " + e, e);
    }
  }

  /** Asserts the future fails with a MemcacheFailure of this message within the given time. */
  static void failure(String message, CompletableFuture<MemcacheReply> future, Duration within) {
    ExecutionException e = assertThrows(ExecutionException.class,
        () -> future.get(within.toMillis(), TimeUnit.MILLISECONDS), "fails within " + within);
    assertEquals(message, assertInstanceOf(MemcacheFailure.class, e.getCause()).getMessage());
    assertTrue(future.isCompletedExceptionally());
  }
}
