package couchbench.targets;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.Optional;

/**
 * Where the CouchDB login comes from, worked out in one place so that {@link Settings#couchdbCredentials()} and
 * {@link Settings#describe()} always agree. Explicit properties win over the URL's user-info; the password falls
 * back to the environment, which keeps it out of the process list.
 */
public record CredentialSource(String user, String userSource, Optional<String> password, String passwordSource) {

  private static final String PASSWORD_VARIABLE = "COUCHDB_PASSWORD";

  /** A record's own toString would print the password. */
  @Override
  public String toString() {
    return "CredentialSource[user=" + user + " (" + userSource + "), password=" + Settings.MASK
        + " (" + passwordSource + ")]";
  }

  /** The login, or empty when no user is set; a malformed -Dcouchdb.url throws. */
  public static Optional<CredentialSource> resolve(Settings settings) {
    return resolve(settings, settings.couchdbUrl().map(CouchUrl::parse));
  }

  /** Same, ignoring a malformed URL: describing the settings must not fail before they are checked. */
  public static Optional<CredentialSource> resolveLeniently(Settings settings) {
    try {
      return resolve(settings);
    } catch (SettingsException e) {
      return resolve(settings, Optional.empty());
    }
  }

  private static Optional<CredentialSource> resolve(Settings settings, Optional<CouchUrl> url) {
    Optional<String> propertyUser = settings.value("couchdb.user");
    Optional<String> urlUser = url.flatMap(CouchUrl::user).filter(user -> !user.isEmpty());
    if (propertyUser.isEmpty() && urlUser.isEmpty()) {
      return Optional.empty();
    }
    String user = propertyUser.orElseGet(urlUser::get);
    String userSource = propertyUser.isPresent() ? "-Dcouchdb.user" : "-Dcouchdb.url";
    Optional<String> propertyPassword = settings.value("couchdb.password");
    // The URL's password belongs to the URL's user: never send it on behalf of another user.
    Optional<String> urlPassword = urlUser.equals(Optional.of(user)) ? url.flatMap(CouchUrl::password) : Optional.empty();
    if (propertyPassword.isPresent()) {
      return Optional.of(new CredentialSource(user, userSource, propertyPassword, "-Dcouchdb.password"));
    }
    if (urlPassword.isPresent()) {
      return Optional.of(new CredentialSource(user, userSource, urlPassword, "-Dcouchdb.url"));
    }
    return Optional.of(new CredentialSource(user, userSource, settings.environmentValue(PASSWORD_VARIABLE), PASSWORD_VARIABLE));
  }

  /** The credentials; a user without a password is a mistake worth stopping for, not an empty password. */
  public Credentials credentials() {
    return new Credentials(user, password.orElseThrow(() -> new SettingsException("CouchDB user " + user
        + " (from " + userSource + ") has no password: set -Dcouchdb.password or the COUCHDB_PASSWORD environment"
        + " variable, or use -Dcouchdb.url=http://" + user + ":password@host:5984")));
  }

  /** A description with the password masked. */
  public String describe() {
    String secret = password.map(p -> Settings.MASK + " (from " + passwordSource + ")").orElse("not set");
    return "CouchDB user " + user + " (from " + userSource + "), password " + secret;
  }
}
