package couchbench.viewquery;

import couchbench.couchdb.DatabaseNames;
import couchbench.couchdb.DesignDocument;
import couchbench.rounds.Rounds;
import couchbench.rounds.StepRule;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Seed 001's httperf run as parameters say: {@code rate} new connections per second, {@code conns}
 * in all, {@code callsPerConn} requests on each, against one view, {@code rounds} times one after the other; and the
 * data set up for it, once.
 *
 * @param database the database holding the view
 * @param design the design document and its view
 * @param setup true to create the database, documents and view first; false to query them as found
 * @param fresh with setup, the database dropped first, so that every run builds the view (and times its build) anew
 * @param rows documents added to the seed's two
 * @param totalRate new connections per second of all injectors together
 * @param totalConns connections of all injectors together
 * @param callsPerConn requests sent on each connection
 * @param injector this injector's share ({@code -Dinjector=I/N}, or httperf's {@code -Dclient=I/N})
 * @param rounds how many times the measured load runs, one after the other
 */
public record ViewQueryPlan(
    String database, DesignDocument design, boolean setup, boolean fresh, int rows, double totalRate,
    int totalConns, int callsPerConn, InjectorShare injector, Rounds rounds) {

  /** The seed's map function: every document, keyed by its id. */
  public static final String SEED_MAP = "function(doc) { emit(doc._id, doc); }";

  /** The seed's two documents. */
  public static final int SEED_DOCUMENTS = 2;

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings database, design, view, setup, rows, rate, conns, callsPerConn, injector (or client), rounds
   * @return the plan
   * @throws SettingsException for a value that cannot be used
   */
  public static ViewQueryPlan from(Settings settings) {
    double rate = positiveNumber("rate", settings.get("rate", "150"));
    String setup = setup(settings);
    ViewQueryPlan plan = new ViewQueryPlan(
        DatabaseNames.fromSettings(settings, "todo"),
        new DesignDocument(name("design", settings.get("design", "todo"), "[A-Za-z0-9_.-]+"),
            name("view", settings.get("view", "list"), "[A-Za-z0-9_.-]+"), SEED_MAP),
        !setup.equals("false"),
        setup.equals("fresh"),
        settings.intValue("rows", 0, 0),
        rate,
        settings.intValue("conns", 27000, 1),
        settings.intValue("callsPerConn", 1, 1),
        InjectorShare.from(settings),
        Rounds.from(settings));
    plan.injector().atLeastOne("conns", plan.totalConns());
    return plan;
  }

  // -Dsetup: true (what is missing is created), fresh (the database dropped first) or false (nothing written).
  private static String setup(Settings settings) {
    String given = settings.get("setup", "true").trim().toLowerCase(Locale.ROOT);
    if (!given.equals("true") && !given.equals("false") && !given.equals("fresh")) {
      throw new SettingsException("-Dsetup=" + settings.get("setup", "") + ": give true (create what is missing),"
          + " fresh (drop the database first, so that the view is built and timed in every run) or false (query the"
          + " view as found)");
    }
    return given;
  }

  /** @return this injector's connections per second */
  public double rate() {
    return injector.rate(totalRate);
  }

  /** @return this injector's connections */
  public int conns() {
    return (int) injector.share(totalConns);
  }

  /**
   * How long new connections keep arriving: conns / rate, rounded to whole seconds (at least one),
   * because Gatling spreads open-model arrivals second by second.
   *
   * @return the injection's duration
   */
  public Duration duration() {
    return Duration.ofSeconds(Math.max(1, Math.round(conns() / rate())));
  }

  /** @return the rate Gatling actually injects: conns over the whole seconds of {@link #duration()} */
  public double effectiveRate() {
    return conns() / (double) duration().toSeconds();
  }

  /** @return how long a round's connections arrive for, as asked: conns / rate, in seconds, before any rounding */
  public double loadSeconds() {
    return conns() / rate();
  }

  /**
   * The step-length rule: no round's figures should rest on less than {@link StepRule#SECONDS} of load.
   *
   * @return what the page warns of when the parameters ask for less; empty when they do not
   */
  public Optional<String> lengthWarning() {
    if (loadSeconds() >= StepRule.SECONDS) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT, "the load%s lasts %.2f s (%d connections at %s/s), under the %d s"
            + " a figure should rest on: raise -Dconns or lower -Drate", rounds.repeated() ? " of each round" : "",
        loadSeconds(), conns(), number(rate()), StepRule.SECONDS));
  }

  /** @return one line saying what the load will do, for the console */
  public String describe() {
    String rate = String.format(Locale.ROOT, "%.1f", effectiveRate());
    return "load: " + conns() + " connections at " + rate + "/s over " + duration().toSeconds() + " s, "
        + callsPerConn + " call(s) each, GET " + path()
        + (!injector.alone() ? " (injector " + injector + " of -Drate=" + totalRate + " -Dconns=" + totalConns + ")" : "")
        + (Math.abs(effectiveRate() - rate()) > 1e-9 * rate()
            ? " (-Drate=" + rate() + " rounded: Gatling injects over whole seconds)" : "")
        + (rounds.repeated() ? ", " + rounds.count() + " rounds one after the other" : "");
  }

  /** @return the rows the view must hold after setup: the seed's two and the added ones */
  public long expectedRows() {
    return SEED_DOCUMENTS + (long) rows;
  }

  /**
   * The request name in Gatling's report; the index-building query is not one of these.
   *
   * @param round the round, 1 to rounds
   * @return e.g. {@code view list}, or {@code view list round 2} with several rounds
   */
  public String requestName(int round) {
    return rounds.name("view " + design.view(), round);
  }

  /** @return the query path, e.g. {@code /todo/_design/todo/_view/list} */
  public String path() {
    return design.queryPath(database);
  }

  /**
   * @param value a rate
   * @return it as a user writes it: 150, not 150.0
   */
  static String number(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }

  private static double positiveNumber(String name, String raw) {
    double value;
    try {
      value = Double.parseDouble(raw.trim());
    } catch (NumberFormatException e) {
      throw new SettingsException("-D" + name + "=" + raw + " is not a number (expected > 0, e.g. 150)");
    }
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new SettingsException("-D" + name + "=" + raw + " is too small (expected > 0, e.g. 150)");
    }
    return value;
  }

  // CouchDB's own rule for database names; design and view names go into a URL path unescaped.
  private static String name(String name, String value, String pattern) {
    if (!value.matches(pattern)) {
      throw new SettingsException("-D" + name + "=" + value + " is not a valid name (expected " + pattern + ")");
    }
    return value;
  }
}
