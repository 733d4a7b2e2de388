package couchbench.feed;

import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;

/**
 * How a listener reaches CouchDB: the login sent with every request, and for https the TLS context whose trust and
 * client certificate the run's other clients use.
 *
 * @param authorization an Authorization header's value (preemptive Basic), empty without a login
 * @param tls the TLS context for https nodes; empty for http
 * @param checkHostName whether the certificate must name the node's host, as it must for the run's other clients
 * @param connectTimeout how long a connection may take to open
 */
public record FeedTarget(Optional<String> authorization, Optional<SSLContext> tls, boolean checkHostName,
    Duration connectTimeout) {

  @Override
  public String toString() {
    return "FeedTarget[authorization=" + authorization.map(value -> "****").orElse("none") + ", tls="
        + tls.isPresent() + ", checkHostName=" + checkHostName + "]";
  }
}
