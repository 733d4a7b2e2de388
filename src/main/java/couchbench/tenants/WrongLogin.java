package couchbench.tenants;

import couchbench.tenants.TenantsPlan.Auth;
import java.util.List;
import java.util.Set;

/** A login each user tries once, before its own, that CouchDB must refuse: which kinds depends on the user's method. */
public enum WrongLogin {

  /** Its name with a wrong password (basic: GET of its database; cookie: POST /_session). */
  WRONG_PASSWORD("wrong password", SecurityProbe.REFUSALS),
  /** GET of its database with a token of its that is signed with another key; CouchDB 3.5 answers 400 Bad HMAC. */
  WRONG_KEY("token signed with a wrong key", Set.of(400, 401)),
  /** GET of its database with a token signed with the run's key whose exp has passed. */
  EXPIRED_TOKEN("expired token", SecurityProbe.REFUSALS),
  /** GET of its database with its name and a proxy token made with another secret. */
  WRONG_PROXY_TOKEN("wrong proxy token", SecurityProbe.REFUSALS),
  /**
   * GET of its database with the AuthSession cookie of its login, at the end of its session, older than -DcookieTimeout
   * (the cookie jar holds a renewed one): CouchDB takes the request as anonymous's, 401. Tried only once the same
   * cookie was let in right after the login ({@link TenantsLoad#FRESH_COOKIE}).
   */
  EXPIRED_COOKIE("expired cookie", SecurityProbe.REFUSALS);

  private final String requestName;
  private final Set<Integer> refusals;

  WrongLogin(String requestName, Set<Integer> refusals) {
    this.requestName = requestName;
    this.refusals = refusals;
  }

  /**
   * @param auth a method of -Dauth
   * @return the wrong logins its users try as they start
   */
  public static List<WrongLogin> of(Auth auth) {
    return switch (auth) {
      case BASIC, COOKIE -> List.of(WRONG_PASSWORD);
      case JWT -> List.of(WRONG_KEY, EXPIRED_TOKEN);
      case PROXY -> List.of(WRONG_PROXY_TOKEN);
    };
  }

  /** @return its request name after the method's, e.g. "wrong password" of "basic wrong password" */
  public String requestName() {
    return requestName;
  }

  /** @return the statuses that refuse it */
  public Set<Integer> refusals() {
    return refusals;
  }
}
