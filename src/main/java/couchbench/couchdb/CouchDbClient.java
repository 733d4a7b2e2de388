package couchbench.couchdb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.targets.CouchTarget;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * A small blocking CouchDB client for what happens outside the measured load: creating and deleting
 * databases, and reading the server's own counts. Credentials go out preemptively on every request,
 * as CouchDB 3 needs them and a challenge round trip would count as a failed login.
 */
public final class CouchDbClient {

  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CouchTarget target;
  private final Optional<String> authorization;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /**
   * A client for one CouchDB server.
   *
   * @param target where the server is, and the credentials to send
   */
  public CouchDbClient(CouchTarget target) {
    this.target = target;
    this.authorization = target.credentials().map(CouchAuth::basicHeader);
  }

  /**
   * Creates an empty database, replacing one of the same name left by an earlier run.
   *
   * @param name the database name
   */
  public void createDatabase(String name) {
    int status = send("PUT", "/" + name, 201, 202, 412).statusCode();
    if (status == 412) {
      deleteDatabase(name);
      send("PUT", "/" + name, 201, 202);
    }
  }

  /**
   * Deletes a database; one that does not exist is fine.
   *
   * @param name the database name
   */
  public void deleteDatabase(String name) {
    send("DELETE", "/" + name, 200, 202, 404);
  }

  /**
   * The database's own count of live documents ({@code doc_count} of {@code GET /db}).
   *
   * @param name the database name
   * @return the document count
   */
  public long docCount(String name) {
    return DatabaseInfo.parse(send("GET", "/" + name, 200).body()).docCount();
  }

  private HttpResponse<byte[]> send(String method, String path, int... expected) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(target.baseUrl() + path))
            .timeout(TIMEOUT)
            .header("Accept", "application/json")
            .method(method, HttpRequest.BodyPublishers.noBody());
    authorization.ifPresent(header -> request.header("Authorization", header));
    HttpResponse<byte[]> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new CouchDbException(
          "CouchDB at " + target.baseUrl() + " did not answer " + method + " " + path + " ("
              + e.getClass().getSimpleName() + "): start it or set -Dcouchdb.url", false);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CouchDbException("interrupted while waiting for CouchDB", false);
    }
    int status = response.statusCode();
    if (CouchAuth.isRefusal(status)) {
      throw new CouchDbException(CouchAuth.refusalMessage(target, status), true);
    }
    for (int ok : expected) {
      if (status == ok) {
        return response;
      }
    }
    throw new CouchDbException(
        "CouchDB at " + target.baseUrl() + " answered " + method + " " + path + " with " + status
            + " " + reason(response.body()), false);
  }

  /** CouchDB's error replies carry {"error": kind, "reason": text}; anything else is shown briefly. */
  private static String reason(byte[] body) {
    try {
      JsonNode node = JSON.readTree(body);
      if (node != null && node.has("error")) {
        return node.path("error").asText() + ": " + node.path("reason").asText();
      }
    } catch (IOException notJson) {
      // fall through: show the start of whatever came back
    }
    String text = new String(body, StandardCharsets.UTF_8).strip();
    return text.length() > 80 ? text.substring(0, 80) + "..." : text;
  }
}
