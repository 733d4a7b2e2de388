package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class TenantTokensTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  // RFC 7515, appendix A.1: the HS256 example's key (its JWK "k"), signing input and signature.
  private static final String RFC7515_KEY = "AyM1SysPpbyDfgZld3umj1qzKObwVMkoqQ-EstJQLr_T-1qS0gZH75aKtMN3Yj0iPS4hc"
      + "gUuTwjAzZr1Z9CAow";
  private static final String RFC7515_SIGNING_INPUT = "eyJ0eXAiOiJKV1QiLA0KICJhbGciOiJIUzI1NiJ9"
      + ".eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ";
  private static final String RFC7515_SIGNATURE = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

  @Test
  void shouldSignAsRfc7515sHs256Example() {
    assertEquals(RFC7515_SIGNATURE, TenantTokens.jwtSignature(Base64.getUrlDecoder().decode(RFC7515_KEY),
        RFC7515_SIGNING_INPUT));
  }

  @Test
  void shouldMakeAnHs256TokenOfTheUserThatExpires() throws Exception {
    byte[] key = Base64.getUrlDecoder().decode(RFC7515_KEY);
    String token = TenantTokens.jwt(key, "couchbench_tenants_00003", Instant.ofEpochSecond(1_800_000_000L));

    String[] parts = token.split("\\.", -1);
    assertEquals(3, parts.length, token);
    JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
    JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
    assertEquals("HS256", header.path("alg").asText());
    assertEquals("JWT", header.path("typ").asText());
    assertEquals("couchbench_tenants_00003", payload.path("sub").asText());
    assertEquals(1_800_000_000L, payload.path("exp").asLong());
    assertEquals(TenantTokens.jwtSignature(key, parts[0] + "." + parts[1]), parts[2]);
    assertEquals(-1, token.indexOf('='), "base64url without padding: " + token);
  }

  @Test
  void shouldMakeTheProxyTokenAsTheHexHmacSha256OfTheName() {
    // RFC 4231, test case 2: HMAC-SHA256 with the key "Jefe" of "what do ya want for nothing?".
    assertEquals("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        TenantTokens.proxyToken("Jefe", "what do ya want for nothing?"));
    assertEquals(64, TenantTokens.proxyToken("secret", "a").getBytes(StandardCharsets.US_ASCII).length);
  }
}
