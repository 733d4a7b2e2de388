package couchbench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed certificates made for a test by the JDK's keytool (run as a child process: the JDK has no public API
 * that signs a certificate), each with its private key, and both written as PEM files as a user would give them.
 */
public final class TestCertificates {

  private static final String STORE_PASSWORD = "test-store";

  /**
   * A certificate and its key.
   *
   * @param certificatePem the certificate as a PEM file, e.g. for -Dcouchdb.caFile
   * @param keyPem the private key as an unencrypted PKCS#8 PEM file, e.g. for -Dcouchdb.clientKey
   * @param certificate the certificate
   * @param key the private key
   */
  public record Identity(Path certificatePem, Path keyPem, X509Certificate certificate, PrivateKey key) {}

  private TestCertificates() {}

  /**
   * Makes a self-signed RSA certificate valid for two days.
   *
   * @param folder where its files go
   * @param name the file names' stem, and the subject's common name after "couchbench test "
   * @param names the subjectAltName extension in keytool's form, e.g. "ip:127.0.0.1,dns:localhost"
   * @return the certificate and key
   */
  public static Identity selfSigned(Path folder, String name, String names) throws IOException, InterruptedException {
    Files.createDirectories(folder);
    Path store = folder.resolve(name + ".p12");
    Files.deleteIfExists(store);
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=couchbench test " + name, "-keystore", store.toString(), "-storetype", "PKCS12",
        "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD));
    if (!names.isEmpty()) {
      command.addAll(List.of("-ext", "san=" + names));
    }
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
      throw new IOException("keytool failed: " + output);
    }
    try (InputStream in = Files.newInputStream(store)) {
      KeyStore keys = KeyStore.getInstance("PKCS12");
      keys.load(in, STORE_PASSWORD.toCharArray());
      X509Certificate certificate = (X509Certificate) keys.getCertificate(name);
      PrivateKey key = (PrivateKey) keys.getKey(name, STORE_PASSWORD.toCharArray());
      Path certificatePem = Files.writeString(folder.resolve(name + ".pem"), pem("CERTIFICATE", certificate.getEncoded()));
      Path keyPem = Files.writeString(folder.resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()));
      return new Identity(certificatePem, keyPem, certificate, key);
    } catch (GeneralSecurityException e) {
      throw new IOException("keytool's store cannot be read", e);
    }
  }

  private static String pem(String type, byte[] der) {
    String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
    return "-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n";
  }
}
