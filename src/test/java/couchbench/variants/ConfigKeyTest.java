package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigKeyTest {

  @Test
  void shouldShowASecretsValueNeverAndOtherValuesAsTheyAre() {
    ConfigKey secret = new ConfigKey("chttpd_auth", "secret");
    ConfigKey jwtKey = new ConfigKey("jwt_keys", "hmac:_default");

    assertTrue(secret.secret() && jwtKey.secret() && new ConfigKey("admins", "admin").secret());
    assertEquals("(a secret, not shown)", secret.shown(Optional.of("s3cr3t")));
    assertEquals("(a secret, not shown)", jwtKey.shown(Optional.of("a2V5")));
    assertEquals("(its default)", secret.shown(Optional.empty()));
    ConfigKey handlers = new ConfigKey("chttpd", "authentication_handlers");
    assertFalse(handlers.secret());
    assertEquals("{chttpd_auth, jwt_authentication_handler}", handlers.shown(Optional.of(
        "{chttpd_auth, jwt_authentication_handler}")));
  }
}
