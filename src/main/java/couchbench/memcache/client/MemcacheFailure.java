package couchbench.memcache.client;

import io.netty.channel.ConnectTimeoutException;
import java.io.IOException;
import java.net.ConnectException;
import java.security.cert.CertificateException;
import java.time.Duration;

/**
 * Why a memcache request failed. The message names a kind of failure and no key or value, e.g. "timeout after
 * 5000 ms" or "connection closed by 127.0.0.1:11211", so that Gatling groups failures by it. It has no stack
 * trace: under load it is an expected outcome, not a bug.
 */
public final class MemcacheFailure extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Why the connection it fails was dropped; null for a failure that drops none (a bad request, a failed connect). */
  private final ProtocolErrors.DropCause dropCause;

  /**
   * Creates a failure.
   *
   * @param message the grouped kind of failure
   */
  public MemcacheFailure(String message) {
    this(message, null);
  }

  private MemcacheFailure(String message, ProtocolErrors.DropCause dropCause) {
    super(message, null, false, false);
    this.dropCause = dropCause;
  }

  static MemcacheFailure invalidKey(String problem) {
    return new MemcacheFailure("invalid key: " + problem);
  }

  static MemcacheFailure invalidRequest(String problem) {
    return new MemcacheFailure("invalid request: " + problem);
  }

  static MemcacheFailure timeout(Duration timeout) {
    return new MemcacheFailure("timeout after " + timeout.toMillis() + " ms", ProtocolErrors.DropCause.TIMEOUT);
  }

  static MemcacheFailure closedBy(String server) {
    return new MemcacheFailure("connection closed by " + server, ProtocolErrors.DropCause.SERVER_CLOSED);
  }

  static MemcacheFailure malformed(String problem) {
    return new MemcacheFailure("malformed reply: " + problem, ProtocolErrors.DropCause.MALFORMED_REPLY);
  }

  static MemcacheFailure outOfStep() {
    return new MemcacheFailure("reply out of step with requests", ProtocolErrors.DropCause.OUT_OF_STEP);
  }

  static MemcacheFailure unsolicited(String server) {
    return new MemcacheFailure("bytes from " + server + " with no request outstanding",
        ProtocolErrors.DropCause.OUT_OF_STEP);
  }

  /** memcached may have read the data block as a command of its own: nothing after it can be trusted. */
  static MemcacheFailure storageRejected(String errorLine) {
    return new MemcacheFailure("storage command answered " + errorLine, ProtocolErrors.DropCause.STORE_REFUSED);
  }

  static MemcacheFailure clientClosed() {
    return new MemcacheFailure("client closed");
  }

  /** @return why the connection it fails was dropped; null when it drops none, or the client closed it */
  ProtocolErrors.DropCause dropCause() {
    return dropCause;
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

  /**
   * A TLS handshake that failed: the trust manager's why where there is one (the engine's own words, "General
   * OpenSslEngine problem", wrap it), a server that closed the connection during it, or the engine's words.
   */
  static MemcacheFailure handshakeFailed(Throwable cause, String server) {
    Throwable why = cause;
    while (!(why instanceof CertificateException) && why.getCause() != null) {
      why = why.getCause();
    }
    String said = why instanceof CertificateException ? why.getMessage()
        : cause instanceof IOException ? "the server closed the connection during it"
        : cause.getMessage();
    return new MemcacheFailure("TLS handshake with " + server + " failed: "
        + (said == null ? cause.getClass().getSimpleName() : said));
  }

  /** A failure of an open connection, by kind: an I/O error there means the server went away. */
  static MemcacheFailure connectionFailed(Throwable cause, String server) {
    if (cause instanceof MemcacheFailure failure) {
      return failure;
    }
    if (cause instanceof IOException) {
      return new MemcacheFailure("connection closed by " + server, ProtocolErrors.DropCause.IO_ERROR);
    }
    return new MemcacheFailure("connection to " + server + " failed: " + cause.getClass().getSimpleName(),
        ProtocolErrors.DropCause.IO_ERROR);
  }
}
