package couchbench;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** Replies of the tests' small loopback HTTP servers (fakes, proxies, sinks), sent whole and closed. */
public final class HttpReplies {

  private HttpReplies() {}

  /**
   * Sends a JSON reply, as CouchDB answers.
   *
   * @param exchange the request being answered
   * @param status the HTTP status
   * @param json the body
   */
  public static void json(HttpExchange exchange, int status, String json) throws IOException {
    send(exchange, status, "application/json", json.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Sends a reply.
   *
   * @param exchange the request being answered
   * @param status the HTTP status
   * @param contentType the body's type
   * @param body the body, possibly empty
   */
  public static void send(HttpExchange exchange, int status, String contentType, byte[] body) throws IOException {
    exchange.getResponseHeaders().add("Content-Type", contentType);
    exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
    exchange.getResponseBody().write(body);
    exchange.close();
  }
}
