package couchbench.targets;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * What a run trusts of CouchDB over https, and the client certificate it shows: one trust for the whole run, used by
 * the setup client ({@link #sslContext()}) and by Gatling's HTTP client ({@link #installForGatling()}), so that both
 * verify the same certificate the same way. Without settings it trusts what the JVM trusts (its cacerts, or
 * -Djavax.net.ssl.trustStore).
 */
public final class CouchTls {

  static final String CA_FILE = "couchdb.caFile";
  static final String CLIENT_CERT = "couchdb.clientCert";
  static final String CLIENT_KEY = "couchdb.clientKey";
  static final String INSECURE = "couchdb.insecure";
  private static final List<String> SETTINGS = List.of(CA_FILE, CLIENT_CERT, CLIENT_KEY, INSECURE);
  // The client key lives only in this in-memory key store; its password protects nothing and is no user's secret.
  private static final char[] IN_MEMORY = "couchbench".toCharArray();

  /** The JVM's own trust and no client certificate: what a run without TLS settings uses. */
  public static final CouchTls JVM_DEFAULT =
      new CouchTls(Optional.empty(), false, Optional.empty(), Optional.empty(), Optional.empty());

  private final Optional<Path> caFile;
  private final boolean insecure;
  private final Optional<Path> clientCert;
  private final ServerTrust trust;
  private final Optional<KeyManagerFactory> clientKeys;
  private final SSLContext context;

  private CouchTls(Optional<Path> caFile, boolean insecure, Optional<Path> clientCert,
      Optional<List<X509Certificate>> trusted, Optional<KeyManagerFactory> clientKeys) {
    this.caFile = caFile;
    this.insecure = insecure;
    this.clientCert = clientCert;
    this.trust = insecure ? new ServerTrust(Optional.empty(), "nothing")
        : new ServerTrust(Optional.of(pkix(trusted)), caFile.map(file -> "the certificates of -D" + CA_FILE + "=" + file)
            .orElse("the JVM's trusted certificates"));
    this.clientKeys = clientKeys;
    try {
      context = SSLContext.getInstance("TLS");
      context.init(clientKeys.map(KeyManagerFactory::getKeyManagers).orElse(null), new TrustManager[] {trust}, null);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no TLS context", e);
    }
  }

  /**
   * Reads -Dcouchdb.caFile, -Dcouchdb.clientCert, -Dcouchdb.clientKey and -Dcouchdb.insecure.
   *
   * @param settings the run's settings
   * @param baseUrl the CouchDB URL they are for
   * @return the run's TLS; {@link #JVM_DEFAULT} when none is set
   * @throws SettingsException when a file cannot be used, the settings contradict each other, or the URL is not https
   */
  static CouchTls from(Settings settings, String baseUrl) {
    List<String> given = SETTINGS.stream().filter(name -> settings.value(name).isPresent()).toList();
    if (given.isEmpty()) {
      return JVM_DEFAULT;
    }
    if (!baseUrl.startsWith("https://")) {
      throw new SettingsException("-D" + given.get(0) + " is set, but CouchDB at " + baseUrl + " is not https:"
          + " set -Dcouchdb.url=https://host:port, or leave out the TLS settings");
    }
    Optional<Path> caFile = settings.value(CA_FILE).map(Path::of);
    boolean insecure = settings.value(INSECURE).isPresent() && settings.booleanValue(INSECURE, false);
    if (insecure && caFile.isPresent()) {
      throw new SettingsException("-D" + INSECURE + "=true skips the check that -D" + CA_FILE
          + " asks for: give one of them");
    }
    Optional<Path> clientCert = settings.value(CLIENT_CERT).map(Path::of);
    Optional<Path> clientKey = settings.value(CLIENT_KEY).map(Path::of);
    if (clientCert.isPresent() != clientKey.isPresent()) {
      throw new SettingsException("-D" + (clientCert.isPresent() ? CLIENT_CERT : CLIENT_KEY) + " is set without -D"
          + (clientCert.isPresent() ? CLIENT_KEY : CLIENT_CERT) + ": a client certificate needs its private key (PEM)");
    }
    Optional<KeyManagerFactory> keys = clientCert.map(cert -> keyManagers(
        PemFiles.certificates(CLIENT_CERT, cert), PemFiles.privateKey(CLIENT_KEY, clientKey.get())));
    return new CouchTls(caFile, insecure, clientCert, caFile.map(file -> PemFiles.certificates(CA_FILE, file)), keys);
  }

  /** @return the TLS context of the setup client: the run's trust and client certificate */
  public SSLContext sslContext() {
    return context;
  }

  /** @return the key managers holding -Dcouchdb.clientCert and its key; empty without a client certificate */
  public Optional<KeyManagerFactory> clientKeys() {
    return clientKeys;
  }

  /** @return whether -Dcouchdb.insecure=true turned the certificate check off */
  public boolean insecure() {
    return insecure;
  }

  /** @return the check of CouchDB's certificate that both clients make */
  ServerTrust serverTrust() {
    return trust;
  }

  /** @return the client certificate file, if one is given */
  Optional<Path> clientCert() {
    return clientCert;
  }

  /**
   * Makes Gatling's HTTP client check certificates with this run's trust. Gatling 3.15 reads its own trust store
   * once, when its configuration loads, before a simulation is built; but with none configured and its insecure
   * default off (couchbench's gatling.conf), Netty asks the JDK for the default trust manager algorithm each time it
   * builds a TLS context, and that a run can still set.
   */
  public void installForGatling() {
    GatlingTrust.install(serverTrust());
  }

  /** @return what is verified, for the target's description, e.g. "certificate checked against ca.pem" */
  String describe() {
    String check = insecure ? "certificate NOT checked (-D" + INSECURE + "=true)"
        : "certificate and host name checked against " + caFile.map(Path::toString).orElse("the JVM's trusted CAs");
    return check + clientCert.map(cert -> ", client certificate " + cert).orElse("");
  }

  /** @return the protocol versions and cipher suites the clients offer, for a refused handshake */
  String offered() {
    SSLParameters parameters = context.getDefaultSSLParameters();
    return String.join(", ", parameters.getProtocols()) + " with the cipher suites "
        + String.join(", ", parameters.getCipherSuites());
  }

  /** @return the TLS settings given, for the settings line at the start; empty when none is */
  static Optional<String> describeSettings(Settings settings) {
    List<String> given = new ArrayList<>();
    for (String name : SETTINGS) {
      settings.value(name).ifPresent(value -> given.add(name + "=" + value));
    }
    return given.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", given));
  }

  private static X509ExtendedTrustManager pkix(Optional<List<X509Certificate>> trusted) {
    try {
      TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
      if (trusted.isEmpty()) {
        factory.init((KeyStore) null);
      } else {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        for (int i = 0; i < trusted.get().size(); i++) {
          store.setCertificateEntry("trusted-" + i, trusted.get().get(i));
        }
        factory.init(store);
      }
      return Arrays.stream(factory.getTrustManagers()).filter(X509ExtendedTrustManager.class::isInstance)
          .map(X509ExtendedTrustManager.class::cast).findFirst().orElseThrow();
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("the JDK's PKIX trust manager is missing", e);
    }
  }

  private static KeyManagerFactory keyManagers(List<X509Certificate> chain, PrivateKey key) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("client", key, IN_MEMORY, chain.toArray(X509Certificate[]::new));
      KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, IN_MEMORY);
      return factory;
    } catch (GeneralSecurityException | IOException e) {
      throw new SettingsException("-D" + CLIENT_CERT + " and -D" + CLIENT_KEY + " do not make a client certificate ("
          + e.getClass().getSimpleName() + "): give the certificate and its own private key");
    }
  }
}
