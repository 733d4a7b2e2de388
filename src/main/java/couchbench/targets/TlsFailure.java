package couchbench.targets;

import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * One line for a TLS handshake with CouchDB or a memcache server that failed: a certificate not trusted or for another
 * name (from {@link ServerTrust}), a client certificate wanted or refused, a handshake refused (with what couchbench
 * offered), or a server that does not speak TLS. Refused connections and timeouts are not TLS failures: they stay
 * "does not answer".
 */
public final class TlsFailure {

  // How the JDK reports an alert the server sent.
  private static final Pattern ALERT = Pattern.compile("Received fatal alert: (\\w+)");
  private static final Set<String> CLIENT_CERTIFICATE_ALERTS = Set.of("certificate_required", "bad_certificate",
      "unsupported_certificate", "certificate_revoked", "certificate_expired", "certificate_unknown", "unknown_ca",
      "access_denied");

  private TlsFailure() {}

  /**
   * @param failure what the client threw
   * @param address the server: CouchDB's URL without user-info, or a memcache server's host:port
   * @param tls the run's TLS for that server, for what it offered and which client certificate it showed
   * @return the line saying what failed and which setting fixes it; empty when the failure is not TLS's
   */
  public static Optional<String> describe(Throwable failure, String address, ServerTls tls) {
    String server = tls.server().name() + " at " + address + " ";
    SSLException ssl = null;
    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
      if (cause instanceof CertificateRejected rejected) {
        return Optional.of(server + rejected.getMessage());
      }
      if (ssl == null && cause instanceof SSLException found) {
        ssl = found;
      }
    }
    if (ssl == null) {
      return Optional.empty();
    }
    String message = String.valueOf(ssl.getMessage());
    Matcher alert = ALERT.matcher(message);
    if (alert.find()) {
      return Optional.of(server + alert(alert.group(1), tls));
    }
    if (message.contains("Remote host terminated the handshake")) {
      return Optional.of(server + "closed the connection during the TLS handshake without saying why: couchbench"
          + " offered " + tls.offered() + "; the server's log says what it refused (" + tls.server().handshakeSettings()
          + ")" + clientCertificateHint(tls));
    }
    if (message.contains("Unsupported or unrecognized SSL message")) {
      return Optional.of(server + "does not answer in TLS " + tls.server().plainPortFix());
    }
    return Optional.of(server + "failed the TLS handshake (" + ssl.getClass().getSimpleName() + ": " + message
        + "): the JDK's -Djavax.net.debug=ssl:handshake shows the handshake");
  }

  private static String alert(String alert, ServerTls tls) {
    String said = " (TLS alert " + alert + ")";
    // The only certificate a client sends is its own: these alerts are about it, or about its absence.
    TlsServer kind = tls.server();
    if (CLIENT_CERTIFICATE_ALERTS.contains(alert)) {
      return tls.clientCert().map(cert -> "refused the client certificate of -D" + kind.clientCert() + "=" + cert
              + said + ": give one its " + kind.clientCaSetting() + " trusts, with its own key in -D"
              + kind.clientKey())
          .orElse("wants a client certificate" + said + ": set -D" + kind.clientCert() + " and -D" + kind.clientKey()
              + " (PEM)");
    }
    return "refused the TLS handshake" + said + ": couchbench offered " + tls.offered()
        + "; compare the server's accepted versions and ciphers (" + kind.handshakeSettings() + ")"
        + clientCertificateHint(tls);
  }

  private static String clientCertificateHint(ServerTls tls) {
    return tls.clientCert().isPresent() ? "" : "; if it asks for a client certificate, set -D"
        + tls.server().clientCert() + " and -D" + tls.server().clientKey();
  }
}
