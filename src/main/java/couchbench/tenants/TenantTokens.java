package couchbench.tenants;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * What a user shows CouchDB instead of a password: a JSON Web Token signed with HS256 (-Dauth=jwt, checked by
 * CouchDB's {@code jwt_authentication_handler} against {@code [jwt_keys] hmac:_default}), or the token of proxy
 * authentication (-Dauth=proxy: the hex HMAC-SHA256 of the user's name with {@code [chttpd_auth] secret}, the first of
 * CouchDB 3.5's {@code [chttpd_auth] hash_algorithms}).
 */
final class TenantTokens {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();
  private static final String HMAC_SHA256 = "HmacSHA256";

  private TenantTokens() {}

  /**
   * @param key the signing key, as {@code [jwt_keys] hmac:_default} holds it base64-encoded
   * @param subject the user's name, its {@code sub} claim
   * @param expires its {@code exp} claim
   * @return the compact JWT: header, payload and signature, each base64url without padding
   */
  static String jwt(byte[] key, String subject, Instant expires) {
    String header = BASE64URL.encodeToString(JSON.createObjectNode().put("alg", "HS256").put("typ", "JWT")
        .toString().getBytes(StandardCharsets.UTF_8));
    String payload = BASE64URL.encodeToString(JSON.createObjectNode().put("sub", subject)
        .put("exp", expires.getEpochSecond()).toString().getBytes(StandardCharsets.UTF_8));
    String signingInput = header + "." + payload;
    return signingInput + "." + jwtSignature(key, signingInput);
  }

  /**
   * @param key the signing key
   * @param signingInput the encoded header, a dot, the encoded payload
   * @return the HS256 signature of a JWT (RFC 7515), base64url without padding
   */
  static String jwtSignature(byte[] key, String signingInput) {
    return BASE64URL.encodeToString(hmacSha256(key, signingInput));
  }

  /**
   * @param secret the server's {@code [chttpd_auth] secret}
   * @param user the name in {@code X-Auth-CouchDB-UserName}
   * @return the {@code X-Auth-CouchDB-Token}: the hex HMAC-SHA256 of the name with the secret
   */
  static String proxyToken(String secret, String user) {
    return HexFormat.of().formatHex(hmacSha256(secret.getBytes(StandardCharsets.UTF_8), user));
  }

  private static byte[] hmacSha256(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance(HMAC_SHA256);
      mac.init(new SecretKeySpec(key, HMAC_SHA256));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no " + HMAC_SHA256 + ", which every Java SE runtime must have", e);
    }
  }
}
