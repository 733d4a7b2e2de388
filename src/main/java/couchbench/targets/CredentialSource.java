package couchbench.targets;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.Optional;

/**
 * Where the CouchDB login comes from, worked out in one place so that {@link TargetSettings#credentials()} and
 * {@link TargetSettings#describe()} always agree. Explicit properties win over the URL's user-info; the password falls
 * back to the environment, which keeps it out of the process list.
 */
record CredentialSource(String user, String userSource, Optional<String> password, String passwordSource) {

  /** A record's own toString would print the password. */
  @Override
  public String toString() {
    return "CredentialSource[user=" + user + " (" + userSource + "), password=" + Settings.MASK
        + " (" + passwordSource + ")]";
  }

  /**
   * The login, or empty when no user is set; a malformed url (-Dcouchdb.url as given) throws. Of several node URLs, the
   * first one's user-info counts: the nodes of a cluster share their users.
   */
  static Optional<CredentialSource> resolve(Settings settings, Optional<String> url) {
    return fromParsed(settings, url.map(urls -> CouchUrl.parseAll(urls).get(0)));
  }

  /** Same, ignoring a malformed URL: describing the settings must not fail before they are checked. */
  static Optional<CredentialSource> resolveLeniently(Settings settings, Optional<String> url) {
    try {
      return resolve(settings, url);
    } catch (SettingsException e) {
      return fromParsed(settings, Optional.empty());
    }
  }

  private static Optional<CredentialSource> fromParsed(Settings settings, Optional<CouchUrl> url) {
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
    return Optional.of(new CredentialSource(user, userSource,
        settings.environmentValue(TargetSettings.PASSWORD_VARIABLE), TargetSettings.PASSWORD_VARIABLE));
  }

  /** The credentials; a user without a password is a mistake worth stopping for, not an empty password. */
  public Credentials credentials() {
    return new Credentials(user, password.orElseThrow(() -> new SettingsException("CouchDB user " + user
        + " (from " + userSource + ") has no password: set -Dcouchdb.password or the "
        + TargetSettings.PASSWORD_VARIABLE + " environment variable, or use -Dcouchdb.url=http://" + user
        + ":password@host:5984")));
  }

  /** A description with the password masked. */
  public String describe() {
    String secret = password.map(p -> Settings.MASK + " (from " + passwordSource + ")").orElse("not set");
    return "CouchDB user " + user + " (from " + userSource + "), password " + secret;
  }
}
