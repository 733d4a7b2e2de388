package couchbench.targets;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Sends a request with the JDK's HTTP client and waits for its reply on the monotonic clock.
 *
 * <p>The JDK's client (17) times a request's timeout on the wall clock (its deadlines are Instants): a step of the
 * machine's clock forward, a virtual machine's host setting its guest's time, ends every wait then in flight at once,
 * and a run stopped on a server that answers ("no reply within 5 s", or "no connection within 3 s": RunFolderIT's
 * stepped clock). Here the request carries no timeout of its own; the wait for its reply does, and a reply that is
 * late is cancelled, which aborts its exchange. The client's connect timeout stays (it tells no connection from no
 * reply), and a connection it ended before its time is tried again.
 */
public final class SteadyHttp {

  // A connection the wall clock's steps ended early is tried again, this many times in all.
  private static final int CONNECT_ATTEMPTS = 3;

  private SteadyHttp() {}

  /**
   * @param request a request without a timeout of its own (one would be timed on the wall clock again)
   * @param timeout how long to wait for the reply; empty: as long as it takes
   * @throws HttpTimeoutException when no reply came within the timeout
   * @throws IOException as the client's send throws it: no connection, a failed handshake, a broken reply
   */
  public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request, Optional<Duration> timeout,
      HttpResponse.BodyHandler<T> body) throws IOException, InterruptedException {
    if (request.timeout().isPresent()) {
      throw new IllegalArgumentException("the request's own timeout is timed on the wall clock: give it here instead");
    }
    long started = System.nanoTime();
    for (int attempt = 1; ; attempt++) {
      long attemptStarted = System.nanoTime();
      try {
        return await(client.sendAsync(request, body), timeout.map(wait -> wait.toNanos() - (attemptStarted - started)));
      } catch (HttpConnectTimeoutException e) {
        // The client's connect timeout is on the wall clock too, and no request went out without a connection: one
        // that ended before its time is sent again.
        long connecting = System.nanoTime() - attemptStarted;
        if (attempt == CONNECT_ATTEMPTS || connecting >= client.connectTimeout().orElse(Duration.ZERO).toNanos()) {
          throw e;
        }
      }
    }
  }

  private static <T> HttpResponse<T> await(CompletableFuture<HttpResponse<T>> reply, Optional<Long> nanos)
      throws IOException, InterruptedException {
    try {
      return nanos.isEmpty() ? reply.get() : reply.get(nanos.get(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      reply.cancel(true);
      throw new HttpTimeoutException("no reply in time");
    } catch (InterruptedException e) {
      reply.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IOException failure) {
        throw failure;
      }
      throw new IOException(String.valueOf(e.getCause().getMessage()), e.getCause());
    }
  }
}
