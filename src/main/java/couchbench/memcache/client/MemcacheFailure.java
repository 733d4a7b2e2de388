package couchbench.memcache.client;

import io.netty.channel.ConnectTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;

/**
 * Why a memcache request failed. The message names a kind of failure and no key or value, e.g. "timeout after
 * 5000 ms" or "connection closed by 127.0.0.1:11211", so that Gatling groups failures by it. It has no stack
 * trace: under load it is an expected outcome, not a bug.
 */
public final class MemcacheFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;
  private static final String CLIENT_CLOSED = "client closed";

  /**
   * Creates a failure.
   *
   * @param message the grouped kind of failure
   */
  public MemcacheFailure(String message) {
    super(message, null, false, false);
  }

  static MemcacheFailure invalidKey(String problem) {
    return new MemcacheFailure("invalid key: " + problem);
  }

  static MemcacheFailure invalidRequest(String problem) {
    return new MemcacheFailure("invalid request: " + problem);
  }

  static MemcacheFailure timeout(Duration timeout) {
    return new MemcacheFailure("timeout after " + timeout.toMillis() + " ms");
  }

  static MemcacheFailure closedBy(String server) {
    return new MemcacheFailure("connection closed by " + server);
  }

  static MemcacheFailure malformed(String problem) {
    return new MemcacheFailure("malformed reply: " + problem);
  }

  static MemcacheFailure outOfStep() {
    return new MemcacheFailure("reply out of step with requests");
  }

  static MemcacheFailure unsolicited(String server) {
    return new MemcacheFailure("bytes from " + server + " with no request outstanding");
  }

  /** memcached may have read the data block as a command of its own: nothing after it can be trusted. */
  static MemcacheFailure storageRejected(String errorLine) {
    return new MemcacheFailure("storage command answered " + errorLine);
  }

  static MemcacheFailure clientClosed() {
    return new MemcacheFailure(CLIENT_CLOSED);
  }

  /** @return whether it is the client closing its connections, not the server or the network failing */
  boolean closedByClient() {
    return CLIENT_CLOSED.equals(getMessage());
  }

  /** A failure to connect, by kind. */
  static MemcacheFailure connectFailed(Throwable cause, String server, Duration connectTimeout) {
    if (cause instanceof ConnectTimeoutException) {
      return new MemcacheFailure("connect timeout after " + connectTimeout.toMillis() + " ms: " + server);
    }
    if (cause instanceof ConnectException) {
      return new MemcacheFailure("connection refused: " + server);
    }
    // Not an I/O failure: e.g. "incompatible event loop type", a channel factory that does not fit the loops.
    return new MemcacheFailure("cannot connect to " + server + ": " + cause.getClass().getSimpleName()
        + (cause.getMessage() == null ? "" : " " + cause.getMessage().split(":", 2)[0]));
  }

  /** A failure of an open connection, by kind: an I/O error there means the server went away. */
  static MemcacheFailure connectionFailed(Throwable cause, String server) {
    if (cause instanceof MemcacheFailure failure) {
      return failure;
    }
    if (cause instanceof IOException) {
      return closedBy(server);
    }
    return new MemcacheFailure("connection to " + server + " failed: " + cause.getClass().getSimpleName());
  }
}
