package couchbench.targets;

import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
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
import java.util.stream.Stream;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * What a run trusts of its servers over TLS, and the client certificate it shows: CouchDB over https
 * (-Dcouchdb.caFile, ...), or memcache with -Dmemcache.tls=true (-Dmemcache.caFile, ...). One trust for the whole
 * run: for CouchDB, the setup client ({@link #sslContext()}) and Gatling's HTTP client ({@link #installForGatling()})
 * verify the same certificate the same way; for memcache, the probe, the load's connections and the stats client.
 * Without settings it trusts what the JVM trusts (its cacerts, or -Djavax.net.ssl.trustStore).
 */
public final class ServerTls {

  /** -Dmemcache.tls=true: the memcache servers are spoken to over TLS. */
  static final String MEMCACHE_TLS = "memcache.tls";
  // The client key lives only in this in-memory key store; its password protects nothing and is no user's secret.
  private static final char[] IN_MEMORY = "couchbench".toCharArray();

  /** CouchDB's trust when no TLS setting is given: the JVM's own, and no client certificate. */
  public static final ServerTls COUCHDB_DEFAULT = new ServerTls(TlsServer.COUCHDB, Optional.empty(), false,
      Optional.empty(), Optional.empty(), Optional.empty());

  private final TlsServer server;
  private final Optional<Path> caFile;
  private final boolean insecure;
  private final Optional<Path> clientCert;
  private final ServerTrust trust;
  private final Optional<KeyManagerFactory> clientKeys;
  private final SSLContext context;
  private SslContext nettyContext;

  private ServerTls(TlsServer server, Optional<Path> caFile, boolean insecure, Optional<Path> clientCert,
      Optional<List<X509Certificate>> trusted, Optional<KeyManagerFactory> clientKeys) {
    this.server = server;
    this.caFile = caFile;
    this.insecure = insecure;
    this.clientCert = clientCert;
    this.trust = insecure ? new ServerTrust(server, Optional.empty(), "nothing")
        : new ServerTrust(server, Optional.of(pkix(trusted)), caFile.map(file -> "the certificates of -D"
            + server.caFile() + "=" + file).orElse("the JVM's trusted certificates"));
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
   * @return the run's TLS; {@link #COUCHDB_DEFAULT} when none is set
   * @throws SettingsException when a file cannot be used, the settings contradict each other, or the URL is not https
   */
  static ServerTls couchdb(Settings settings, String baseUrl) {
    List<String> given = given(settings, TlsServer.COUCHDB);
    if (given.isEmpty()) {
      return COUCHDB_DEFAULT;
    }
    if (!baseUrl.startsWith("https://")) {
      throw new SettingsException("-D" + given.get(0) + " is set, but CouchDB at " + baseUrl + " is not https:"
          + " set -Dcouchdb.url=https://host:port, or leave out the TLS settings");
    }
    return from(settings, TlsServer.COUCHDB);
  }

  /**
   * Reads -Dmemcache.tls, and with it -Dmemcache.caFile, -Dmemcache.clientCert, -Dmemcache.clientKey and
   * -Dmemcache.insecure.
   *
   * @param settings the run's settings
   * @return the memcache servers' TLS; empty without -Dmemcache.tls=true (plain text, memcache's default)
   * @throws SettingsException when a file cannot be used, or the settings contradict each other or come without
   *     -Dmemcache.tls=true
   */
  static Optional<ServerTls> memcache(Settings settings) {
    boolean on = settings.booleanValue(MEMCACHE_TLS, false);
    List<String> given = given(settings, TlsServer.MEMCACHE);
    if (!on) {
      if (!given.isEmpty()) {
        throw new SettingsException("-D" + given.get(0) + " is set without -D" + MEMCACHE_TLS + "=true: add it to"
            + " speak TLS to the memcache servers, or leave out the TLS settings");
      }
      return Optional.empty();
    }
    return Optional.of(from(settings, TlsServer.MEMCACHE));
  }

  private static List<String> given(Settings settings, TlsServer server) {
    return Stream.of(server.caFile(), server.clientCert(), server.clientKey(), server.insecure())
        .filter(name -> settings.value(name).isPresent()).toList();
  }

  private static ServerTls from(Settings settings, TlsServer server) {
    Optional<Path> caFile = settings.value(server.caFile()).map(Path::of);
    boolean insecure = settings.value(server.insecure()).isPresent() && settings.booleanValue(server.insecure(), false);
    if (insecure && caFile.isPresent()) {
      throw new SettingsException("-D" + server.insecure() + "=true skips the check that -D" + server.caFile()
          + " asks for: give one of them");
    }
    Optional<Path> clientCert = settings.value(server.clientCert()).map(Path::of);
    Optional<Path> clientKey = settings.value(server.clientKey()).map(Path::of);
    if (clientCert.isPresent() != clientKey.isPresent()) {
      throw new SettingsException("-D" + (clientCert.isPresent() ? server.clientCert() : server.clientKey())
          + " is set without -D" + (clientCert.isPresent() ? server.clientKey() : server.clientCert())
          + ": a client certificate needs its private key (PEM)");
    }
    Optional<KeyManagerFactory> keys = clientCert.map(cert -> keyManagers(server,
        PemFiles.certificates(server.clientCert(), cert), PemFiles.privateKey(server.clientKey(), clientKey.get())));
    return new ServerTls(server, caFile, insecure, clientCert,
        caFile.map(file -> PemFiles.certificates(server.caFile(), file)), keys);
  }

  /** @return the TLS context of the setup client: the run's trust and client certificate */
  public SSLContext sslContext() {
    return context;
  }

  /**
   * The same trust and client certificate for a Netty client (the memcache protocol's connections), on OpenSSL's
   * engine where Netty has it (BoringSSL, which Gatling brings), else the JDK's; the host name checked unless
   * -Dmemcache.insecure=true.
   *
   * @return the context, built on first use
   * @throws SettingsException when no TLS context can be built from the settings
   */
  public synchronized SslContext nettyContext() {
    if (nettyContext == null) {
      try {
        nettyContext = SslContextBuilder.forClient().sslProvider(nettyEngine()).trustManager(trust)
            .keyManager(clientKeys.orElse(null)).endpointIdentificationAlgorithm(insecure ? null : "HTTPS").build();
      } catch (SSLException e) {
        throw new SettingsException("the TLS settings of " + server.name() + " make no TLS context (" + e.getMessage()
            + "): check -D" + server.caFile() + ", -D" + server.clientCert() + " and -D" + server.clientKey());
      }
    }
    return nettyContext;
  }

  private static SslProvider nettyEngine() {
    return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
  }

  /** @return the key managers holding the client certificate and its key; empty without a client certificate */
  public Optional<KeyManagerFactory> clientKeys() {
    return clientKeys;
  }

  /** @return whether -Dcouchdb.insecure=true (or -Dmemcache.insecure=true) turned the certificate check off */
  public boolean insecure() {
    return insecure;
  }

  /** @return the kind of server this TLS is for, and the names of its settings */
  TlsServer server() {
    return server;
  }

  /** @return the check of the server's certificate that every client of the run makes */
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
    String check = insecure ? "certificate NOT checked (-D" + server.insecure() + "=true)"
        : "certificate and host name checked against " + caFile.map(Path::toString).orElse("the JVM's trusted CAs");
    return check + clientCert.map(cert -> ", client certificate " + cert).orElse("");
  }

  /** @return the TLS engine of {@link #nettyContext()}, e.g. "BoringSSL" or "the JDK's" */
  static String nettyEngineName() {
    return nettyEngine() == SslProvider.OPENSSL ? OpenSsl.versionString() : "the JDK's";
  }

  /** @return the protocol versions and cipher suites the clients offer, for a refused handshake */
  String offered() {
    SSLParameters parameters = context.getDefaultSSLParameters();
    return String.join(", ", parameters.getProtocols()) + " with the cipher suites "
        + String.join(", ", parameters.getCipherSuites());
  }

  /**
   * Warns, when the certificate check is off, that any server can pose as the one named.
   *
   * @param servers the servers, as the user gave them
   */
  void warnWhenInsecure(List<String> servers) {
    if (insecure) {
      Console.warn("-D" + server.insecure() + "=true: the certificate of " + server.name() + " at "
          + String.join(", ", servers) + " is not checked, so any server can pose as it; give -D" + server.caFile()
          + " instead to check it");
    }
  }

  /**
   * @param settings the run's settings
   * @param server whose TLS settings
   * @return the TLS settings given for that kind of server, for the settings line at the start; empty if none is
   */
  static Optional<String> describeSettings(Settings settings, TlsServer server) {
    List<String> names = new ArrayList<>();
    if (server == TlsServer.MEMCACHE) {
      names.add(MEMCACHE_TLS);
    }
    names.addAll(given(settings, server));
    List<String> given = new ArrayList<>();
    for (String name : names) {
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

  private static KeyManagerFactory keyManagers(TlsServer server, List<X509Certificate> chain, PrivateKey key) {
    try {
      KeyStore store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("client", key, IN_MEMORY, chain.toArray(X509Certificate[]::new));
      KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      factory.init(store, IN_MEMORY);
      return factory;
    } catch (GeneralSecurityException | IOException e) {
      throw new SettingsException("-D" + server.clientCert() + " and -D" + server.clientKey()
          + " do not make a client certificate ("
          + e.getClass().getSimpleName() + "): give the certificate and its own private key");
    }
  }
}
