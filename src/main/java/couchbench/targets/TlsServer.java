package couchbench.targets;

/**
 * Which kind of server a run's TLS is for, CouchDB's https or memcache's TLS: its settings' prefix (-Dcouchdb.caFile,
 * -Dmemcache.caFile) and the words a one-line failure uses for it, so that both kinds are checked and refused alike.
 *
 * @param prefix the settings' prefix, e.g. "couchdb"
 * @param name how a line names one server, e.g. "CouchDB" in "CouchDB at https://db1:6984"
 * @param addressSetting the setting that says where the servers are, e.g. "-Dcouchdb.url"
 * @param plainPortFix what a line adds to "does not answer in TLS": what the port may be, and what to do
 * @param handshakeSettings where the server's accepted TLS versions and ciphers are set
 * @param clientCaSetting where the server's trusted client CAs are set
 */
record TlsServer(String prefix, String name, String addressSetting, String plainPortFix, String handshakeSettings,
    String clientCaSetting) {

  static final TlsServer COUCHDB = new TlsServer("couchdb", "CouchDB", "-Dcouchdb.url",
      "(a plain http port?): use http:// in -Dcouchdb.url, or the port of its https listener",
      "CouchDB: its [ssl] tls_versions, ciphers and verify_ssl_certificates",
      "[ssl] cacert_file");

  static final TlsServer MEMCACHE = new TlsServer("memcache", "memcache server", "-Dmemcache.servers",
      "(a plain memcache port?): leave out -Dmemcache.tls, or give the port of a memcached started with -Z",
      "memcached: its -o ssl_min_version, ssl_ciphers and ssl_verify_mode", "-o ssl_ca_cert");

  /** @return -Dprefix.caFile's name: PEM certificates the server's must chain to */
  String caFile() {
    return prefix + ".caFile";
  }

  /** @return -Dprefix.clientCert's name: the client certificate, PEM */
  String clientCert() {
    return prefix + ".clientCert";
  }

  /** @return -Dprefix.clientKey's name: the client certificate's private key, PEM */
  String clientKey() {
    return prefix + ".clientKey";
  }

  /** @return -Dprefix.insecure's name: true to check no certificate */
  String insecure() {
    return prefix + ".insecure";
  }
}
