package couchbench.targets;

import couchbench.startup.SettingsException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Certificates and private keys from PEM files named by a setting; what cannot be read is one line naming it. */
final class PemFiles {

  private static final Pattern PRIVATE_KEY =
      Pattern.compile("-----BEGIN ([A-Z ]*)PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END \\1PRIVATE KEY-----");
  // A PKCS#8 key says its algorithm inside; trying the JDK's key factories in turn is simpler than parsing it.
  private static final List<String> KEY_ALGORITHMS = List.of("RSA", "EC", "EdDSA", "RSASSA-PSS");

  private PemFiles() {}

  /**
   * @param setting e.g. "couchdb.caFile"
   * @param file the file it names
   * @return every certificate in the file, in order, at least one
   * @throws SettingsException when the file cannot be read or holds no certificate
   */
  static List<X509Certificate> certificates(String setting, Path file) {
    byte[] bytes = read(setting, file);
    try {
      List<X509Certificate> certificates = CertificateFactory.getInstance("X.509")
          .generateCertificates(new ByteArrayInputStream(bytes)).stream().map(X509Certificate.class::cast).toList();
      if (!certificates.isEmpty()) {
        return certificates;
      }
    } catch (CertificateException e) {
      // said below, with the setting
    }
    throw new SettingsException("-D" + setting + "=" + file + " holds no certificate (expected PEM:"
        + " -----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)");
  }

  /**
   * @param setting e.g. "couchdb.clientKey"
   * @param file the file it names
   * @return the unencrypted PKCS#8 private key in it
   * @throws SettingsException when the file cannot be read or holds no such key
   */
  static PrivateKey privateKey(String setting, Path file) {
    String text = new String(read(setting, file), StandardCharsets.US_ASCII);
    Matcher pem = PRIVATE_KEY.matcher(text);
    String convert = ": convert it with openssl pkcs8 -topk8 -nocrypt -in " + file + " -out key.pem";
    if (!pem.find()) {
      throw new SettingsException("-D" + setting + "=" + file + " holds no private key (expected PEM:"
          + " -----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY-----)");
    }
    if (!pem.group(1).isEmpty()) {
      throw new SettingsException("-D" + setting + "=" + file + " holds a " + pem.group(1).trim()
          + " private key, couchbench reads unencrypted PKCS#8 (BEGIN PRIVATE KEY)" + convert);
    }
    PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(pem.group(2)));
    for (String algorithm : KEY_ALGORITHMS) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(spec);
      } catch (GeneralSecurityException e) {
        // not this algorithm: try the next
      }
    }
    throw new SettingsException("-D" + setting + "=" + file + " holds a private key that is not RSA, EC or EdDSA"
        + " PKCS#8" + convert);
  }

  private static byte[] read(String setting, Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new SettingsException("-D" + setting + "=" + file + " cannot be read (" + e.getClass().getSimpleName()
          + "): give the path of a PEM file");
    }
  }
}
