package couchbench.search;

import couchbench.couchdb.DatabaseNames;
import couchbench.distributions.RequestMix;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A Search run's parameters: the documents loaded, the search classes asked and their shares, with the writes', by
 * how many users.
 *
 * @param docs the documents loaded
 * @param seed the data's seed
 * @param mix the classes' and the writes' shares, as given
 * @param shares each search class's share of the requests, in the order given
 * @param users virtual users, each asking one request after the other
 * @param requests requests per user (a page of a bookmark walk is one); 0 when the users search for -Dduration
 * @param database the database's name
 * @param update whether searches bring the index up to date first (CouchDB's default), or take it as it is
 *     (update=false: answers may lack the latest writes)
 * @param rate the freshness writers' documents a second, each searched for until found; 0 for none
 * @param duration how long the freshness writers write, and the users search when they ask no count of requests
 */
public record SearchPlan(int docs, long seed, RequestMix mix, Map<SearchClass, Integer> shares, int users,
    int requests, String database, boolean update, double rate, Duration duration) {

  /** How long a freshness writer searches for its document before it counts it not found. */
  public static final Duration FIND_WITHIN = Duration.ofSeconds(30);

  /**
   * Reads the plan.
   *
   * @param settings docs, seed, searches, mix, users, requests, database, update, rate, duration
   * @return the plan
   * @throws SearchException naming the setting and what to give, before any load
   */
  public static SearchPlan from(Settings settings) {
    if (!InjectorShare.from(settings).alone()) {
      throw new SearchException("-Dinjector: Search runs on one injector (each reply is checked against the data it"
          + " loaded); leave -Dinjector out");
    }
    RequestMix mix;
    try {
      mix = RequestMix.from("searches", settings.value("searches"), settings.value("mix"), "search",
          SearchClass.names());
    } catch (IllegalArgumentException e) {
      throw new SearchException(e.getMessage());
    }
    Map<SearchClass, Integer> shares = new LinkedHashMap<>();
    mix.shares().forEach((name, weight) -> shares.put(SearchClass.of(name), weight));
    double rate = settings.doubleValue("rate", 0);
    if (rate < 0 || rate > 1000) {
      throw new SearchException("-Drate=" + settings.get("rate", "") + ": give the freshness writers' documents a"
          + " second, from 0 (none, the default) to 1000");
    }
    // -Dduration without -Drequests: every user searches for it; with both, -Dduration is the freshness writers' alone.
    int requests = settings.value("duration").isPresent() && settings.value("requests").isEmpty() ? 0
        : settings.intValue("requests", 200, 1);
    return new SearchPlan(settings.intValue("docs", 20_000, 1), settings.intValue("seed", 42, 0), mix,
        Collections.unmodifiableMap(shares), settings.intValue("users", 4, 1), requests,
        DatabaseNames.fromSettings(settings, "couchbench_search"), settings.booleanValue("update", true), rate,
        Duration.ofSeconds(settings.intValue("duration", 30, 1)));
  }

  /** @return the run's load, in a line */
  public String describe() {
    return String.format(Locale.ROOT, "%,d documents (seed %d) in %s; %d users, %s; shares: %s%s%s",
        docs, seed, database, users, requests > 0 ? String.format(Locale.ROOT, "%,d requests each", requests)
            : "searching for " + duration.toSeconds() + " s", mix.describe(), update ? "" : "; searches with update=false",
        rate > 0 ? String.format(Locale.ROOT, "; freshness writers: %s documents a second for %d s, each searched for"
            + " until found", rate, duration.toSeconds()) : "");
  }
}
