package couchbench.targets;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.startup.Console;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Optional;

/** Asks GET / whether a URL is CouchDB (or pouchdb-server, which stands in for it). */
final class CouchProbe {

  /** How the probe names the stand-in, e.g. "pouchdb-server 4.2.0". */
  static final String POUCHDB = "pouchdb-server";

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);
  private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(5);
  private static final ObjectMapper JSON = new ObjectMapper();
  // HTTP/1.1 only: no h2c upgrade headers, the plain request any CouchDB-like server expects.
  private static final HttpClient CLIENT = client(ServerTls.COUCHDB_DEFAULT);

  private CouchProbe() {}

  /**
   * GET baseUrl/, with the credentials if any: GET / needs no login in CouchDB 3, but sending it checks the
   * password once, before a run would fail on every request (and lock the user out).
   */
  static Probe probe(String baseUrl, Optional<Credentials> credentials) {
    return probe(baseUrl, credentials, ServerTls.COUCHDB_DEFAULT);
  }

  /** Same, over https with the run's TLS. */
  static Probe probe(String baseUrl, Optional<Credentials> credentials, ServerTls tls) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + "/")).GET();
    credentials.ifPresent(login -> request.header("Authorization", login.authorization()));
    HttpResponse<String> response;
    try {
      response = SteadyHttp.send(tls == ServerTls.COUCHDB_DEFAULT ? CLIENT : client(tls), request.build(),
          Optional.of(REPLY_TIMEOUT), HttpResponse.BodyHandlers.ofString());
    } catch (HttpConnectTimeoutException e) {
      return new Probe(Probe.Outcome.NO_ANSWER, "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s");
    } catch (HttpTimeoutException e) {
      return new Probe(Probe.Outcome.NO_ANSWER, "no reply within " + REPLY_TIMEOUT.toSeconds() + " s");
    } catch (ConnectException e) {
      return refusedOrUnknown(e);
    } catch (IOException e) {
      return TlsFailure.describe(e, baseUrl, tls).map(line -> new Probe(Probe.Outcome.TLS_FAILED, line))
          .orElseGet(() -> new Probe(Probe.Outcome.NO_ANSWER, String.valueOf(e.getMessage())));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Probe(Probe.Outcome.NO_ANSWER, "interrupted");
    }
    return classify(response.statusCode(), response.body());
  }

  /**
   * GET baseUrl + path, for what the cluster says of itself (e.g. /_membership).
   *
   * @return the reply's JSON when it is 200 and JSON; empty for any other status (a server without that endpoint), a
   *     reply that is not JSON, or no reply
   */
  static Optional<JsonNode> json(String baseUrl, String path, Optional<Credentials> credentials, ServerTls tls) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path)).GET();
    credentials.ifPresent(login -> request.header("Authorization", login.authorization()));
    try {
      HttpResponse<String> response = SteadyHttp.send(tls == ServerTls.COUCHDB_DEFAULT ? CLIENT : client(tls),
          request.build(), Optional.of(REPLY_TIMEOUT), HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? Optional.ofNullable(parse(response.body())) : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static HttpClient client(ServerTls tls) {
    return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(CONNECT_TIMEOUT)
        .sslContext(tls.sslContext()).build();
  }

  private static Probe refusedOrUnknown(ConnectException e) {
    if (e.getCause() instanceof UnresolvedAddressException) {
      return new Probe(Probe.Outcome.NO_ANSWER, "unknown host");
    }
    String message = e.getMessage();
    return message == null || message.toLowerCase().contains("refused")
        ? new Probe(Probe.Outcome.REFUSED, "connection refused")
        : new Probe(Probe.Outcome.NO_ANSWER, message);
  }

  private static Probe classify(int status, String body) {
    // CouchDB 3 answers 401 to a wrong password and 403 to a user locked out after failed logins.
    if (status == 401 || status == 403) {
      return new Probe(Probe.Outcome.UNAUTHORIZED, "HTTP " + status + " " + Console.quote(body));
    }
    JsonNode json = parse(body);
    if (status != 200 || json == null || !json.isObject()) {
      return new Probe(Probe.Outcome.NOT_IT, (status == 200 ? "" : "HTTP " + status + " ") + Console.quote(body));
    }
    String version = json.path("version").asText("?");
    if (json.has("couchdb")) {
      return new Probe(Probe.Outcome.ANSWERS, "CouchDB " + version);
    }
    if (json.has("express-pouchdb")) {
      return new Probe(Probe.Outcome.ANSWERS, POUCHDB + " " + version);
    }
    return new Probe(Probe.Outcome.NOT_IT, Console.quote(body));
  }

  private static JsonNode parse(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      return null;
    }
  }
}
