package couchbench.targets;

import java.net.Socket;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * How a run checks a server's certificate, for each of its clients alike: the JDK's PKIX checks against the trusted
 * certificates (the path first, then the host name, so that a failure can say which), or nothing at all with
 * -Dcouchdb.insecure=true (-Dmemcache.insecure=true). A refusal names the certificate and the setting that fixes it.
 */
final class ServerTrust extends X509ExtendedTrustManager {

  private final TlsServer server;
  private final Optional<X509ExtendedTrustManager> pkix;
  private final String trusted;

  /**
   * @param server the kind of server checked, for the settings a refusal names
   * @param pkix the JDK's trust manager over the trusted certificates; empty to trust any certificate
   * @param trusted what it trusts, for messages, e.g. "the certificates of -Dcouchdb.caFile=ca.pem"
   */
  ServerTrust(TlsServer server, Optional<X509ExtendedTrustManager> pkix, String trusted) {
    this.server = server;
    this.pkix = pkix;
    this.trusted = trusted;
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    check(chain, authType, engine == null ? null : engine.getPeerHost(),
        () -> pkix.get().checkServerTrusted(chain, authType, engine));
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    check(chain, authType, askedHost(socket), () -> pkix.get().checkServerTrusted(chain, authType, socket));
  }

  /** The host a socket was asked to reach, as the host name check sees it: not a reverse lookup of its address. */
  private static String askedHost(Socket socket) {
    if (socket instanceof SSLSocket tls && tls.getHandshakeSession() != null) {
      return tls.getHandshakeSession().getPeerHost();
    }
    return socket == null || socket.getInetAddress() == null ? null : socket.getInetAddress().getHostName();
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    if (pkix.isPresent()) {
      checkPath(chain, authType);
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    checkClientTrusted(chain, authType);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
    throw new CertificateException("couchbench is a client: it checks servers' certificates only");
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return pkix.map(X509ExtendedTrustManager::getAcceptedIssuers).orElseGet(() -> new X509Certificate[0]);
  }

  /** The JDK's whole check, which includes the host name, run once the path is known to be trusted. */
  private interface WholeCheck {
    void run() throws CertificateException;
  }

  private void check(X509Certificate[] chain, String authType, String asked, WholeCheck whole)
      throws CertificateException {
    if (pkix.isEmpty()) {
      return;
    }
    checkPath(chain, authType);
    try {
      whole.run();
    } catch (CertificateException e) {
      throw nameMismatch(chain[0], asked, e);
    }
  }

  private void checkPath(X509Certificate[] chain, String authType) throws CertificateRejected {
    try {
      pkix.get().checkServerTrusted(chain, authType);
    } catch (CertificateException e) {
      X509Certificate certificate = chain[0];
      throw new CertificateRejected("sent a certificate that is not trusted (subject "
          + certificate.getSubjectX500Principal() + ", issuer " + certificate.getIssuerX500Principal() + ", not among " + trusted + ": " + rootCause(e)
          + "): give the certificate of its CA, or its own, with -D" + server.caFile() + "=PEM"
          + " (or skip the check with -D" + server.insecure() + "=true)", e);
    }
  }

  private CertificateRejected nameMismatch(X509Certificate certificate, String asked, CertificateException e) {
    return new CertificateRejected("sent a certificate for " + String.join(", ", names(certificate)) + ", not for "
        + (asked == null ? "the host asked for" : asked) + " (" + rootCause(e) + "): use one of those names in "
        + server.addressSetting() + ", or give the server a certificate that names " + (asked == null ? "it" : asked),
        e);
  }

  /** The DNS names and IP addresses a certificate is for, else its subject. */
  static List<String> names(X509Certificate certificate) {
    List<String> names = new ArrayList<>();
    try {
      Collection<List<?>> alternatives = certificate.getSubjectAlternativeNames();
      if (alternatives != null) {
        for (List<?> name : alternatives) {
          int type = (Integer) name.get(0);
          if (type == 2 || type == 7) { // dNSName, iPAddress
            names.add(String.valueOf(name.get(1)));
          }
        }
      }
    } catch (CertificateException e) {
      // unreadable extension: fall back to the subject
    }
    return names.isEmpty() ? List.of(certificate.getSubjectX500Principal().getName()) : names;
  }

  private static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }
}
