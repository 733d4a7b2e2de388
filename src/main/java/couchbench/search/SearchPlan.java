package couchbench.search;

import couchbench.couchdb.DatabaseNames;
import couchbench.curve.CurvePlan;
import couchbench.distributions.RequestMix;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

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
 * @param engines what each search is asked of, in turn, where it answers the class (-Dengines): Nouveau alone by
 *     default
 * @param curve with -Dtargets, a staircase of rates each class climbs alone, one class after the other; with -Dtarget,
 *     one step of that rate for -Dduration; empty for the closed model (each user's next search when the last ends)
 * @param rebuild whether the index function is changed after the first build (a new revision of the design
 *     document), and the index's rebuild timed as the first build is, before the load asks the new index
 * @param buildRate documents a second written while each build runs, every one acknowledged then searched for after
 *     it; 0 for none
 * @param partitioned whether the database is partitioned, its index too, each search asking one partition through
 *     {@code _partition/<p>/_design/...}
 */
public record SearchPlan(int docs, long seed, RequestMix mix, Map<SearchClass, Integer> shares, int users,
    int requests, String database, boolean update, double rate, Duration duration, List<Engine> engines,
    Optional<CurvePlan> curve, boolean rebuild, double buildRate, boolean partitioned) {

  /**
   * A class asked of one engine: a request name of its own, and under -Dtarget or -Dtargets a staircase of its own.
   *
   * @param searchClass what is asked
   * @param engine what answers it
   */
  public record Question(SearchClass searchClass, Engine engine) {

    /** @return its request name, e.g. "term", "term / mango" */
    public String name() {
      return SearchCall.requestName(searchClass, engine);
    }
  }

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
    List<Engine> engines = engines(settings);
    RequestMix mix;
    try {
      // Beside Nouveau alone, by default the classes another engine answers; a class named that none of the engines
      // answers is refused below, named.
      boolean named = settings.value("searches").isPresent() || settings.value("mix").isPresent();
      mix = RequestMix.from("searches", settings.value("searches"), settings.value("mix"), "search",
          named || engines.equals(List.of(Engine.NOUVEAU)) ? SearchClass.names() : Arrays.stream(SearchClass.values())
              .filter(searchClass -> engines.stream().anyMatch(engine -> engine != Engine.NOUVEAU
                  && engine.answers(searchClass))).map(SearchClass::value).toList());
    } catch (IllegalArgumentException e) {
      throw new SearchException(e.getMessage());
    }
    Map<SearchClass, Integer> shares = new LinkedHashMap<>();
    mix.shares().forEach((name, weight) -> shares.put(SearchClass.of(name), weight));
    for (SearchClass searchClass : shares.keySet()) {
      if (engines.stream().noneMatch(engine -> engine.answers(searchClass))) {
        throw new SearchException("-Dengines=" + settings.get("engines", "") + ": none of them answers "
            + searchClass.value() + " (" + searchClass.description() + "); they answer " + String.join(", ",
                Arrays.stream(SearchClass.values()).filter(any -> engines.stream().anyMatch(engine -> engine.answers(
                    any))).map(SearchClass::value).toList()) + " (docs/search.md says why): leave "
            + searchClass.value() + " out of -Dsearches, or add nouveau to -Dengines");
      }
    }
    double rate = settings.doubleValue("rate", 0);
    if (rate < 0 || rate > 1000) {
      throw new SearchException("-Drate=" + settings.get("rate", "") + ": give the freshness writers' documents a"
          + " second, from 0 (none, the default) to 1000");
    }
    boolean partitioned = settings.booleanValue("partitioned", false);
    if (partitioned && !engines.equals(List.of(Engine.NOUVEAU))) {
      throw new SearchException("-Dpartitioned=true does not go with -Dengines=" + settings.get("engines", "")
          + ": the other engines' indexes are asked of the whole database; leave -Dengines out, or -Dpartitioned");
    }
    double buildRate = settings.doubleValue("buildRate", 0);
    if (buildRate < 0 || buildRate > 1000) {
      throw new SearchException("-DbuildRate=" + settings.get("buildRate", "") + ": give the documents a second written"
          + " while the index builds, from 0 (none, the default) to 1000");
    }
    Duration duration = Duration.ofSeconds(settings.intValue("duration", 30, 1));
    Optional<CurvePlan> curve = paced(settings, duration);
    if (curve.isPresent() && mix.writeShare() > 0) {
      throw new SearchException("-Dmix=" + settings.get("mix", "") + ": at a rate (-Dtarget, -Dtargets) each class is"
          + " asked alone, without writes between its searches; leave write out of -Dmix, and give -Drate for"
          + " freshness writers meanwhile");
    }
    // -Dduration without -Drequests: every user searches for it; with both, -Dduration is the freshness writers' alone.
    int requests = curve.isPresent() || settings.value("duration").isPresent() && settings.value("requests").isEmpty()
        ? 0 : settings.intValue("requests", 200, 1);
    return new SearchPlan(settings.intValue("docs", 20_000, 1), settings.intValue("seed", 42, 0), mix,
        Collections.unmodifiableMap(shares), settings.intValue("users", 4, 1), requests,
        DatabaseNames.fromSettings(settings, "couchbench_search"), settings.booleanValue("update", true), rate,
        duration, engines, curve, settings.booleanValue("rebuild", false), buildRate,
        partitioned);
  }

  // -Dengines=nouveau,mango,view,mango_nouveau: each search asked of each, in turn.
  private static List<Engine> engines(Settings settings) {
    String given = settings.get("engines", Engine.NOUVEAU.value());
    List<Engine> engines = new ArrayList<>();
    for (String name : given.split(",")) {
      Engine engine = Arrays.stream(Engine.values()).filter(any -> any.value().equals(name.trim()
          .toLowerCase(Locale.ROOT))).findFirst().orElseThrow(() -> new SearchException("-Dengines=" + given
          + ": no engine " + name.trim() + "; there are " + String.join(", ", Engine.names())));
      if (!engines.contains(engine)) {
        engines.add(engine);
      }
    }
    return List.copyOf(engines);
  }

  // -Dtargets: issue 46's staircase, each class climbing it in turn; -Dtarget: one step of that rate for -Dduration.
  private static Optional<CurvePlan> paced(Settings settings, Duration duration) {
    Optional<CurvePlan> curve = CurvePlan.from(settings);
    Optional<String> target = settings.value("target");
    String alongside = target.isPresent() ? "-Dtarget" : settings.value("requests").isPresent() ? "-Drequests" : "";
    if (curve.isPresent() && !alongside.isEmpty()) {
      throw new SearchException(alongside + " does not go with -Dtargets: each class climbs the staircase alone,"
          + " each step -DsettleSeconds then -DstepSeconds long; leave " + alongside + " out");
    }
    if (target.isEmpty()) {
      return curve;
    }
    double rate = settings.doubleValue("target", 0);
    if (!(rate > 0)) {
      throw new SearchException("-Dtarget=" + target.get() + " is not a rate above 0: give the searches a second,"
          + " all users together, each class in turn for -Dduration, e.g. -Dtarget=50");
    }
    if (settings.value("requests").isPresent()) {
      throw new SearchException("-Drequests does not go with -Dtarget: each class is asked at the rate for"
          + " -Dduration; leave -Drequests out");
    }
    return Optional.of(CurvePlan.steady(rate, duration));
  }

  /** @return the classes asked, in order */
  public List<SearchClass> classes() {
    return List.copyOf(shares.keySet());
  }

  /**
   * @return each class asked of each engine that answers it: under -Dtarget or -Dtargets, each climbs alone, in this
   *     order
   */
  public List<Question> questions() {
    return classes().stream().flatMap(searchClass -> engines.stream().filter(engine -> engine.answers(searchClass))
        .map(engine -> new Question(searchClass, engine))).toList();
  }

  /** @return the run's load, in a line */
  public String describe() {
    String builds = (buildRate > 0 ? String.format(Locale.ROOT, "; %s documents a second written while the index"
        + " builds", buildRate) : "") + (rebuild ? "; the index function changed after the first build and the index"
        + " rebuilt" : "");
    return String.format(Locale.ROOT, "%,d documents (seed %d) in %s%s%s; %d users, %s; %s%s%s%s",
        docs, seed, database, partitioned ? String.format(Locale.ROOT, " (partitioned: %d partitions, each search"
            + " asking one)", Corpus.PARTITIONS) : "", builds, users, curve.map(steps -> "each class alone in turn,"
            + " each search at its intended start, the users sharing each step's rate: " + steps.describe())
            .orElse(requests > 0
            ? String.format(Locale.ROOT, "%,d requests each", requests) : "searching for " + duration.toSeconds()
            + " s"), (curve.isPresent() ? "classes: " : "shares: ") + mix.describe(), update ? "" : "; searches with update=false",
        engines.equals(List.of(Engine.NOUVEAU)) ? "" : "; each search asked of " + String.join(", ",
            engines.stream().map(Engine::value).toList()) + " in turn",
        rate > 0 ? String.format(Locale.ROOT, "; freshness writers: %s documents a second for %d s, each searched for"
            + " until found", rate, duration.toSeconds()) : "");
  }
}
