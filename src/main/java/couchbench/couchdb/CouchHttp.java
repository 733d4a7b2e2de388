package couchbench.couchdb;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.targets.DatabaseOptions;
import io.gatling.http.client.Request;
import io.gatling.http.client.uri.Uri;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import io.netty.handler.codec.http.HttpMethod;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/** CouchDB on Gatling's HTTP DSL: the protocol for a target, and requests that stop on refused logins. */
public final class CouchHttp {

  private static final String REFUSED = "CouchDB refused the login";
  private static final AtomicBoolean refusalReported = new AtomicBoolean();

  private CouchHttp() {}

  /**
   * Gatling's HTTP protocol for a CouchDB target: its base URL, JSON headers, preemptive Basic
   * credentials when there are any, and the client certificate when there is one (its trust is the
   * run's, see ServerTls). Gatling's warm-up request (to a public host) is off, and so is
   * its HTTP cache: CouchDB sends ETags, and a benchmark must not turn reads into 304s. Several nodes are its base
   * URLs: Gatling pins each virtual user to one of them, round robin ({@link NodeRouting}). With -Dw or -Dr, each
   * write of the load carries {@code ?w=}, each read {@code ?r=}.
   *
   * @param target the CouchDB server
   * @return the protocol builder
   */
  public static HttpProtocolBuilder protocol(CouchTarget target) {
    HttpProtocolBuilder protocol =
        http.baseUrls(target.nodes().urls())
            .disableWarmUp()
            .disableCaching()
            .acceptHeader("application/json")
            .contentTypeHeader("application/json");
    HttpProtocolBuilder withLogin = target
        .credentials()
        .map(credentials -> protocol.basicAuth(credentials.user(), credentials.password()))
        .orElse(protocol);
    HttpProtocolBuilder signed = target.options().quorum()
        ? withLogin.sign(request -> withQuorum(target.options(), request)) : withLogin;
    // Gatling builds a TLS context per virtual user when given key managers: only with a client certificate.
    return target.tls().clientKeys().map(keys -> signed.perUserKeyManagerFactory(user -> keys)).orElse(signed);
  }

  /** The request with ?w= if it writes, ?r= if it reads, when the run sets them. */
  private static Request withQuorum(DatabaseOptions options, Request request) {
    boolean reads = request.getMethod().equals(HttpMethod.GET) || request.getMethod().equals(HttpMethod.HEAD);
    Optional<Integer> copies = reads ? options.r() : options.w();
    if (copies.isEmpty()) {
      return request;
    }
    Uri uri = request.getUri();
    String query = (uri.getQuery() == null || uri.getQuery().isEmpty() ? "" : uri.getQuery() + "&")
        + (reads ? "r=" : "w=") + copies.get();
    return request.copyWithNewUri(new Uri(uri.getScheme(), uri.getUserInfo(), uri.getHost(), uri.getPort(),
        uri.getPath(), query, uri.getFragment()));
  }

  /**
   * Sends a request, then stops the whole run if CouchDB refused the login (401/403): CouchDB 3
   * locks a user out after a few failures, so a wrong password must not be tried again and again. Of several nodes,
   * the request goes to its user's node (or the next node, with -Dcouchdb.spread=request); there, and with -Dw, where a
   * write may be accepted below quorum (202), what it got is counted for its node ({@link NodeRouting}).
   *
   * @param target the CouchDB server, named in the message
   * @param request the request, with its own checks
   * @return a chain that sends the request and stops the run on a refusal
   */
  public static ChainBuilder stopOnRefusal(CouchTarget target, HttpRequestActionBuilder request) {
    if (!target.countedPerNode()) {
      // One more check that only reads the status, and one flag read: no session attribute per request. The flag is
      // the run's, so a request that got no reply is never judged by another's status.
      return exec(request.check(status().transform(status -> noteRefusal(target, status))))
          .stopLoadGeneratorIf(REFUSED, session -> refusalReported.get());
    }
    NodeRouting routing = NodeRouting.of(target.nodes());
    return exec(routing::beforeRequest)
        .exec(request.check(status().transformWithSession((status, session) ->
            noteRefusal(target, routing.replied(status, session)))))
        .exec(routing::afterRequest)
        .stopLoadGeneratorIf(REFUSED, session -> refusalReported.get());
  }

  private static int noteRefusal(CouchTarget target, int status) {
    if (CouchAuth.isRefusal(status) && refusalReported.compareAndSet(false, true)) {
      Console.say(CouchAuth.refusalMessage(target, status));
    }
    return status;
  }

  /**
   * Whether a request in this run was refused with 401/403.
   *
   * @return true once a refusal stopped the run
   */
  public static boolean loginWasRefused() {
    return refusalReported.get();
  }
}
