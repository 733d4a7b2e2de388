package couchbench.targets;

import couchbench.startup.Settings;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;

/**
 * A CouchDB user and password. {@link #toString()} masks the password, so a record printed by mistake reveals
 * nothing.
 */
public record Credentials(String user, String password) {

  public Credentials {
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(password, "password");
  }

  /**
   * The value of an HTTP Authorization header for these credentials, sent preemptively: CouchDB 3 answers 401
   * rather than challenging, and repeated failures lock the user out.
   *
   * @return "Basic " and the base64 of user:password
   */
  public String authorization() {
    byte[] pair = (user + ":" + password).getBytes(StandardCharsets.UTF_8);
    return "Basic " + Base64.getEncoder().encodeToString(pair);
  }

  @Override
  public String toString() {
    return "Credentials[user=" + user + ", password=" + Settings.MASK + "]";
  }
}
