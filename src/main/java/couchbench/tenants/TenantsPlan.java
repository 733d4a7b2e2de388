package couchbench.tenants;

import couchbench.couchdb.DatabaseNames;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A Tenants run's parameters: -Dtenants application users, each with a login in {@code _users} and a database of its
 * own, authenticating by one of -Dauth's methods (user k by the k-th in turn), reading (-Dread) and writing its own
 * documents for -Dduration seconds, every -DprobeEvery-th request trying what it was never given.
 *
 * @param tenants the application users, one virtual user each
 * @param auths how they authenticate: each user by one of these methods, user k by method k mod their number
 * @param databases where the users' documents are: a database each, or one shared by all
 * @param validate whether every write runs through a {@code validate_doc_update} that lets only a document's owner
 *     write it (always with a shared database)
 * @param active which users the sessions are: each user one (all), or each session's user drawn (uniform, zipfian)
 * @param sessions the virtual users, each one session of a user: -Dtenants with -Dactive=all, else -Dsessions
 * @param iterations the PBKDF2 iterations set in {@code [chttpd_auth] iterations} for the run; empty to keep the
 *     server's
 * @param cookieTimeout the seconds an AuthSession cookie lasts, set in {@code [chttpd_auth] timeout} for the run
 *     (cookie among -Dauth's methods); empty to keep the server's
 * @param maxDbsOpen the databases CouchDB keeps open, set in {@code [couchdb] max_dbs_open} for the run; empty to
 *     keep the server's
 * @param read the share of the steady requests that are reads of the user's own documents; the rest are writes
 * @param docs documents each user's database holds before the load
 * @param probeEvery every how many steady requests of a user one is a security probe instead
 * @param duration how long the users run after their first request
 * @param prefix the prefix of the users' names and databases: {@code <prefix>_00000}, {@code <prefix>_closed}
 * @param keep whether the users and databases are left after the run
 */
public record TenantsPlan(int tenants, List<Auth> auths, Databases databases, boolean validate, Active active, int sessions, OptionalInt iterations, OptionalInt cookieTimeout, OptionalInt maxDbsOpen, double read, int docs, int probeEvery,
    Duration duration, String prefix, boolean keep) {

  /** How a user proves who it is. */
  public enum Auth {
    /** Its name and password on every request (CouchDB hashes the password, then caches the result). */
    BASIC,
    /** {@code POST /_session} once, then the {@code AuthSession} cookie, renewed when CouchDB sends a new one. */
    COOKIE,
    /** A JSON Web Token signed by couchbench (HS256) on every request, with a key the run gives CouchDB; no login. */
    JWT,
    /** The name and a token made with the server's secret in headers, as a proxy in front of CouchDB sends them. */
    PROXY;

    /** @return its name as -Dauth takes it */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where the users' documents are, as -Ddatabases takes it. */
  public enum Databases {
    /** Each user a database whose _security names it alone. */
    OWN,
    /** Each user a database couch_peruser makes as the user is created (userdb-hex of its name), enabled for the run. */
    PERUSER,
    /** One database whose _security names every user, each document its owner's, checked by validate_doc_update. */
    SHARED;

    /** @return its name as -Ddatabases takes it */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Which users are active, as -Dactive takes it. */
  public enum Active {
    /** Every user, one session each. */
    ALL,
    /** Each session's user drawn alike from all. */
    UNIFORM,
    /** Each session's user drawn by YCSB's scrambled zipfian (constant 0.99): a few users have most sessions. */
    ZIPFIAN;

    /** @return its name as -Dactive takes it */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** The most users a run creates before its load: each is a document in _users and a database. */
  public static final int MAX_TENANTS = 10_000;

  /** Users by default: enough for cross-user probes, few enough to create at 600,000 iterations. */
  public static final int DEFAULT_TENANTS = 10;

  /** The read share by default: an application mostly reads its user's data. */
  public static final double DEFAULT_READ = 0.8;

  /** Documents in each user's database by default. */
  public static final int DEFAULT_DOCS = 20;

  /** A security probe every this many steady requests of a user, by default. */
  public static final int DEFAULT_PROBE_EVERY = 10;

  /** Seconds of steady requests by default. */
  public static final int DEFAULT_DURATION = 30;

  /**
   * @param settings tenants, auth (one method or a comma list), active, sessions, databases, validate, iterations,
   *     maxDbsOpen, read, docs, probeEvery, duration, database, keep
   * @return the plan
   * @throws TenantsException naming the property and what to give instead, before anything is created
   */
  public static TenantsPlan from(Settings settings) {
    if (!InjectorShare.from(settings).alone()) {
      throw new TenantsException("-Dinjector: Tenants runs on one injector (its users are created by one process);"
          + " leave -Dinjector out");
    }
    int tenants = settings.intValue("tenants", DEFAULT_TENANTS, Integer.MIN_VALUE);
    if (tenants < 2 || tenants > MAX_TENANTS) {
      throw new TenantsException("-Dtenants=" + tenants + " is out of range: give -Dtenants from 2 (each user probes"
          + " the next one's database) to " + String.format(Locale.ROOT, "%,d", MAX_TENANTS) + " (the most users,"
          + " each a _users document and a database, Tenants creates before its load)");
    }
    Databases databases = databases(settings.get("databases", "own"));
    boolean validate = settings.booleanValue("validate", databases == Databases.SHARED);
    if (databases == Databases.SHARED && !validate) {
      throw new TenantsException("-Dvalidate=false with -Ddatabases=shared: nothing would keep a user from writing"
          + " over another user's documents in the shared database; leave -Dvalidate out (true with shared) or give"
          + " -Ddatabases=own");
    }
    Active active = active(settings.get("active", "all"));
    int sessions = settings.intValue("sessions", tenants, 1);
    if (active == Active.ALL && sessions != tenants) {
      throw new TenantsException("-Dsessions=" + sessions + " is for -Dactive=uniform or zipfian (each session's user"
          + " drawn): with -Dactive=all each of the -Dtenants users is one session; leave -Dsessions out or give"
          + " -Dactive");
    }
    OptionalInt iterations = forTheRun(settings, "iterations");
    OptionalInt maxDbsOpen = forTheRun(settings, "maxDbsOpen");
    String authList = settings.get("auth", "basic");
    List<Auth> auths = auths(authList);
    if (auths.size() > tenants) {
      throw new TenantsException("-Dauth=" + authList + " names " + auths.size() + " methods for -Dtenants=" + tenants
          + ": each method needs a user of its own; give -Dtenants of at least " + auths.size() + " or fewer methods");
    }
    OptionalInt cookieTimeout = forTheRun(settings, "cookieTimeout");
    int duration = settings.intValue("duration", DEFAULT_DURATION, 1);
    if (cookieTimeout.isPresent() && !auths.contains(Auth.COOKIE)) {
      throw new TenantsException("-DcookieTimeout is for cookie auth (how long an AuthSession cookie lasts): leave it"
          + " out or put cookie among -Dauth's methods (-Dauth=cookie, or e.g. -Dauth=basic,cookie)");
    }
    if (cookieTimeout.isPresent() && cookieTimeout.getAsInt() >= duration) {
      throw new TenantsException("-DcookieTimeout=" + cookieTimeout.getAsInt() + " is not below -Dduration=" + duration
          + ": each user's login cookie must have expired when it is tried again at the end; give a -DcookieTimeout"
          + " below -Dduration");
    }
    double read = settings.doubleValue("read", DEFAULT_READ);
    if (!(read >= 0 && read <= 1)) {
      throw new TenantsException("-Dread=" + read + " is not a proportion: give a value from 0 to 1");
    }
    return new TenantsPlan(tenants, List.copyOf(auths), databases, validate, active, sessions, iterations,
        cookieTimeout, maxDbsOpen, read, settings.intValue("docs", DEFAULT_DOCS, 1), settings.intValue("probeEvery",
        DEFAULT_PROBE_EVERY, 1), Duration.ofSeconds(duration),
        DatabaseNames.fromSettings(settings, "couchbench_tenants"), settings.booleanValue("keep", false));
  }

  // A server's setting given for the run, 1 or more; absent, the server's own is kept.
  private static OptionalInt forTheRun(Settings settings, String name) {
    return settings.value(name).isPresent() ? OptionalInt.of(settings.intValue(name, 0, 1)) : OptionalInt.empty();
  }

  /**
   * @param user a user's number, from 0
   * @return how it authenticates: the methods dealt in turn, so that each has users
   */
  public Auth auth(int user) {
    return auths.get(user % auths.size());
  }

  /**
   * @param auth one of the run's methods
   * @return how many of the -Dtenants users authenticate by it
   */
  public int usersOf(Auth auth) {
    int method = auths.indexOf(auth);
    return method < 0 ? 0 : (tenants - method + auths.size() - 1) / auths.size();
  }

  /** @return the share of the steady requests that are writes, 1 - read in decimal */
  public double write() {
    return BigDecimal.ONE.subtract(BigDecimal.valueOf(read)).doubleValue();
  }

  /**
   * @return the load in words, e.g. "10 users, basic auth, each its own database of 20 documents, read 0.8, write 0.2,
   *     a security probe every 10th request; 30 s"
   */
  public String describe() {
    String sessionsDrawn = active == Active.ALL ? "" : String.format(Locale.ROOT, ", %,d sessions of users drawn %s",
        sessions, active.word());
    String where = switch (databases) {
      case OWN -> "each its own database of %,d documents";
      case PERUSER -> "each its database made by couch_peruser, of %,d documents";
      case SHARED -> "one shared database, %,d documents each";
    };
    return String.format(Locale.ROOT, "%,d users%s, %s auth, " + where + "%s, read %s, write %s, a security probe every"
        + " %d%s request%s; %d s", tenants, sessionsDrawn, methods(), docs, validate
        ? ", every write through a validate_doc_update" : "", read, write(),
        probeEvery, ordinalSuffix(probeEvery), (maxDbsOpen.isPresent() ? "; max_dbs_open " + maxDbsOpen.getAsInt() : "")
        + (cookieTimeout.isPresent() ? "; cookies lasting " + cookieTimeout.getAsInt() + " s" : ""),
        duration.toSeconds());
  }

  // "basic", or a mix in words: "basic, cookie and jwt (dealt to the users in turn)".
  private String methods() {
    List<String> words = auths.stream().map(Auth::word).toList();
    return inWords(words) + (auths.size() == 1 ? "" : " (dealt to the users in turn)");
  }

  /**
   * @param words one or more
   * @return them in a sentence: "basic", "basic and jwt", "basic, cookie and jwt"
   */
  static String inWords(List<String> words) {
    return words.size() == 1 ? words.get(0) : String.join(", ", words.subList(0, words.size() - 1)) + " and "
        + words.get(words.size() - 1);
  }

  private static String ordinalSuffix(int n) {
    if (n % 100 >= 11 && n % 100 <= 13) {
      return "th";
    }
    return switch (n % 10) {
      case 1 -> "st";
      case 2 -> "nd";
      case 3 -> "rd";
      default -> "th";
    };
  }

  private static Active active(String value) {
    return switch (value.strip()) {
      case "all" -> Active.ALL;
      case "uniform" -> Active.UNIFORM;
      case "zipfian" -> Active.ZIPFIAN;
      default -> throw new TenantsException("-Dactive=" + value + " is not a way Tenants draws its active users: give"
          + " -Dactive=all (each user one session, the default), uniform or zipfian (each of -Dsessions sessions a"
          + " user drawn so)");
    };
  }

  // -Dauth: one method, or a comma list of distinct ones.
  private static List<Auth> auths(String value) {
    List<Auth> auths = new ArrayList<>();
    for (String word : value.split(",", -1)) {
      if (word.isBlank()) {
        throw new TenantsException("-Dauth=" + value + " has an empty method: give one of basic, cookie, jwt and proxy,"
            + " or a comma list of them without empty items, e.g. -Dauth=basic,cookie,jwt,proxy");
      }
      Auth auth = auth(word.strip(), value);
      if (auths.contains(auth)) {
        throw new TenantsException("-Dauth=" + value + " names " + auth.word() + " twice: give each method once, e.g."
            + " -Dauth=basic,cookie,jwt,proxy");
      }
      auths.add(auth);
    }
    return auths;
  }

  private static Auth auth(String word, String value) {
    return switch (word) {
      case "basic" -> Auth.BASIC;
      case "cookie" -> Auth.COOKIE;
      case "jwt" -> Auth.JWT;
      case "proxy" -> Auth.PROXY;
      default -> throw new TenantsException("-Dauth=" + (value.strip().equals(word) ? word : value + ": " + word)
          + " is not a way Tenants' users authenticate: give -Dauth=basic (name and password on every request, the"
          + " default), cookie (POST /_session, then its AuthSession cookie), jwt (an HS256 token on every request) or"
          + " proxy (X-Auth-CouchDB-UserName and -Token), or a comma list of them, e.g. -Dauth=basic,jwt");
    };
  }

  private static Databases databases(String value) {
    return switch (value.strip()) {
      case "own" -> Databases.OWN;
      case "shared" -> Databases.SHARED;
      case "peruser" -> Databases.PERUSER;
      default -> throw new TenantsException("-Ddatabases=" + value + " is not a way Tenants gives users databases:"
          + " give -Ddatabases=own (each user a database of its own, whose _security names it alone), peruser (each"
          + " user's database made by CouchDB's couch_peruser) or shared (one database for all, each document written"
          + " by its owner alone)");
    };
  }
}
