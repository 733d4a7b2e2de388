package couchbench.targets;

import java.security.KeyStore;
import java.security.Provider;
import java.security.Security;
import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactorySpi;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The JDK's default trust manager algorithm, pointed at a run's {@link ServerTrust}: Netty, under Gatling's HTTP
 * client, takes the default algorithm's trust managers when no trust store is configured. See
 * {@link ServerTls#installForGatling()}.
 */
final class GatlingTrust {

  static final String ALGORITHM = "couchbench-CouchDB";
  private static final String PROVIDER = "couchbench";

  private GatlingTrust() {}

  static synchronized void install(X509ExtendedTrustManager trust) {
    Security.removeProvider(PROVIDER);
    Security.addProvider(new TrustProvider(trust));
    Security.setProperty("ssl.TrustManagerFactory.algorithm", ALGORITHM);
  }

  /** A security provider with a single trust manager factory, which always hands out the run's trust. */
  private static final class TrustProvider extends Provider {

    private static final long serialVersionUID = 1L;

    TrustProvider(X509ExtendedTrustManager trust) {
      super(PROVIDER, "1", "the trust couchbench uses for CouchDB's certificate");
      putService(new Service(this, "TrustManagerFactory", ALGORITHM, Factory.class.getName(), null, null) {
        @Override
        public Object newInstance(Object parameter) {
          return new Factory(trust);
        }
      });
    }
  }

  private static final class Factory extends TrustManagerFactorySpi {

    private final X509ExtendedTrustManager trust;

    Factory(X509ExtendedTrustManager trust) {
      this.trust = trust;
    }

    @Override
    protected void engineInit(KeyStore ignored) {
      // the trust is the run's, whatever key store the caller has (Netty passes none)
    }

    @Override
    protected void engineInit(ManagerFactoryParameters ignored) {
      // likewise
    }

    @Override
    protected TrustManager[] engineGetTrustManagers() {
      return new TrustManager[] {trust};
    }
  }
}
