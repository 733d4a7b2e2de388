package couchbench.targets;

import couchbench.startup.Console;
import java.security.cert.CertificateException;

/**
 * couchbench's trust refused CouchDB's certificate. It reaches the client as the cause of its handshake failure; its
 * message is the rest of the one line that {@link TlsFailure} prints after "CouchDB at URL".
 */
final class CertificateRejected extends CertificateException {

  private static final long serialVersionUID = 1L;

  CertificateRejected(String message, Throwable cause) {
    super(Console.oneLine(message), cause);
  }
}
