package couchbench.targets;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Objects;
import java.util.Optional;

/**
 * Where CouchDB is, after resolution.
 *
 * @param baseUrl scheme://host:port[/prefix], without user-info and without a trailing slash
 * @param credentials the login to send with every request, if any
 * @param startedLocally true when couchbench started a pouchdb-server for this run
 * @param tls what the clients trust of its certificate over https, and the client certificate they show
 * @param nodes the nodes loaded, the first of which is baseUrl; one unless -Dcouchdb.url lists several
 * @param options -Dq, -Dn, -Dw, -Dr for the databases created and the requests sent
 * @param waits how long couchbench's own requests wait for a reply, and how long an index build is followed
 */
public record CouchTarget(String baseUrl, Optional<Credentials> credentials, boolean startedLocally, ServerTls tls,
    CouchNodes nodes, DatabaseOptions options, CouchWaits waits) {

  public CouchTarget {
    Objects.requireNonNull(baseUrl, "baseUrl");
    Objects.requireNonNull(credentials, "credentials");
    Objects.requireNonNull(tls, "tls");
    Objects.requireNonNull(nodes, "nodes");
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(waits, "waits");
    // The messages do not quote the URL (nor chain the parser's exception, which does): it may carry a password.
    URI uri;
    try {
      uri = new URI(baseUrl);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("baseUrl is not a URL");
    }
    if (uri.getRawUserInfo() != null || uri.getHost() == null) {
      throw new IllegalArgumentException("baseUrl must be scheme://host:port without user-info: pass the login as credentials");
    }
    baseUrl = baseUrl.replaceAll("/+$", "");
    if (!nodes.urls().get(0).equals(baseUrl)) {
      throw new IllegalArgumentException("the first node must be baseUrl");
    }
  }

  /** Its own waits: 30 s a reply, index builds followed until they end. */
  public CouchTarget(String baseUrl, Optional<Credentials> credentials, boolean startedLocally, ServerTls tls,
      CouchNodes nodes, DatabaseOptions options) {
    this(baseUrl, credentials, startedLocally, tls, nodes, options, CouchWaits.DEFAULTS);
  }

  /** One node, CouchDB's own database options. */
  public CouchTarget(String baseUrl, Optional<Credentials> credentials, boolean startedLocally, ServerTls tls) {
    this(baseUrl, credentials, startedLocally, tls, CouchNodes.single(baseUrl.replaceAll("/+$", "")),
        DatabaseOptions.DEFAULTS);
  }

  /** @return the same server without the login, for requests that carry a login of their own (Tenants' users) */
  public CouchTarget withoutCredentials() {
    return new CouchTarget(baseUrl, Optional.empty(), startedLocally, tls, nodes, options, waits);
  }

  /**
   * @return whether each request's node and kind of reply are counted ({@code couchdb.NodeRouting}): with several
   *     nodes, or with -Dw, under which a write may be accepted below quorum (202)
   */
  public boolean countedPerNode() {
    return nodes.cluster() || options.w().isPresent();
  }

  /**
   * The same server and login at another of the cluster's nodes, for what is read through every node.
   *
   * @param url one of {@link #nodes}
   * @return a single-node target for it
   */
  public CouchTarget node(String url) {
    return new CouchTarget(url, credentials, startedLocally, tls, CouchNodes.single(url), options, waits);
  }

  /**
   * The same server with other waits, e.g. a test's shorter reply timeout.
   *
   * @param other how long requests wait and index builds are followed
   * @return this target with them
   */
  public CouchTarget waiting(CouchWaits other) {
    return new CouchTarget(baseUrl, credentials, startedLocally, tls, nodes, options, other);
  }

  /** A target with the JVM's own trust and no client certificate. */
  public CouchTarget(String baseUrl, Optional<Credentials> credentials, boolean startedLocally) {
    this(baseUrl, credentials, startedLocally, ServerTls.COUCHDB_DEFAULT);
  }

  /**
   * The local pouchdb-server behind this target, when couchbench started it for this run.
   *
   * @return its pid and data directory; empty for a server couchbench did not start
   */
  public Optional<LocalServer> local() {
    return startedLocally
        ? LocalServers.find(PouchDbServer.class).filter(s -> s.url().equals(baseUrl)).map(PouchDbServer::local)
        : Optional.empty();
  }

  /**
   * @return e.g. "CouchDB at http://127.0.0.1:5984 as admin", and over https what is verified; never the password
   */
  public String describe() {
    if (startedLocally) {
      return "local pouchdb-server " + PouchDbInstall.version() + " at " + baseUrl + " (started for this run)";
    }
    String at = nodes.cluster() ? String.join(", ", nodes.urls()) + " (" + nodes.describeSpread() + ")" : baseUrl;
    return "CouchDB at " + at + credentials.map(login -> " as " + login.user()).orElse(" without login")
        + (baseUrl.startsWith("https://") ? " (" + tls.describe() + ")" : "")
        + options.describe().map(given -> ", " + given).orElse("");
  }
}
