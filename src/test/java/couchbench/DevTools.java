package couchbench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Chromium's DevTools protocol over its loopback WebSocket: commands by id, with their replies, and events handed to
 * listeners. One connection to the browser; a page's commands and events carry its session id (flattened sessions).
 */
final class DevTools implements WebSocket.Listener, AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Map<Long, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
  private final List<Consumer<JsonNode>> listeners = new CopyOnWriteArrayList<>();
  private final StringBuilder message = new StringBuilder();
  private long lastId;
  private WebSocket socket;

  private DevTools() {}

  /**
   * @param browser the browser's endpoint, ws://127.0.0.1:PORT/devtools/browser/ID
   * @param timeout how long the handshake may take
   * @return a connection
   */
  static DevTools connect(URI browser, Duration timeout) throws IOException {
    DevTools devTools = new DevTools();
    try {
      devTools.socket = HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(timeout)
          .buildAsync(browser, devTools).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IOException("DevTools at " + browser + " did not answer: " + e, e);
    }
    return devTools;
  }

  /** Hands every event from now on to the listener, on the socket's thread: it must not wait for a reply. */
  void onEvent(Consumer<JsonNode> listener) {
    listeners.add(listener);
  }

  void removeListener(Consumer<JsonNode> listener) {
    listeners.remove(listener);
  }

  /**
   * Sends a command and waits for its reply.
   *
   * @param session the page's session id, or null for the browser
   * @param method e.g. "Page.navigate"
   * @param params the command's parameters
   * @param timeout how long the reply may take
   * @return the reply's result
   * @throws IllegalStateException when the browser answers with an error, or not in time
   */
  JsonNode call(String session, String method, Map<String, ?> params, Duration timeout) {
    try {
      return send(session, method, params).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException(method + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException(method + ": no reply within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(method + ": interrupted", e);
    }
  }

  /** Sends a command without waiting for its reply, e.g. from a listener; its reply completes the future. */
  synchronized CompletableFuture<JsonNode> send(String session, String method, Map<String, ?> params) {
    long id = ++lastId;
    ObjectNode command = JSON.createObjectNode().put("id", id).put("method", method);
    command.set("params", JSON.valueToTree(params));
    if (session != null) {
      command.put("sessionId", session);
    }
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    replies.put(id, reply);
    try {
      // One frame at a time: the JDK's WebSocket refuses a send while the previous one is still going.
      socket.sendText(JSON.writeValueAsString(command), true).join();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return reply;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    message.append(data);
    if (last) {
      JsonNode received;
      try {
        received = JSON.readTree(message.toString());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      } finally {
        message.setLength(0);
      }
      if (received.has("id")) {
        CompletableFuture<JsonNode> reply = replies.remove(received.get("id").asLong());
        if (reply != null && received.has("error")) {
          reply.completeExceptionally(new IllegalStateException(received.get("error").toString()));
        } else if (reply != null) {
          reply.complete(received.path("result"));
        }
      } else {
        listeners.forEach(listener -> listener.accept(received));
      }
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    failAll(new IllegalStateException("DevTools closed the connection (" + statusCode + " " + reason + ")"));
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    failAll(error);
  }

  private void failAll(Throwable cause) {
    replies.values().forEach(reply -> reply.completeExceptionally(cause));
    replies.clear();
  }

  @Override
  public void close() {
    socket.abort();
  }
}
