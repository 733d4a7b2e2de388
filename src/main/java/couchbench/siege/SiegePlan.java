package couchbench.siege;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import couchbench.couchdb.DatabaseNames;
import couchbench.curve.CurvePlan;
import couchbench.curve.StaircaseLoad;
import couchbench.data.Md5Keys;
import couchbench.data.Expiry;
import couchbench.data.ValueSizes;
import couchbench.gatling.LoadLoop;
import couchbench.rounds.Rounds;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The parameters of seed 000's load shape, as siege ran it: {@code users} concurrent users, each sending requests
 * back to back for {@code duration}, no think time (a closed model), in each of {@code rounds} rounds one after the
 * other. The simulations build that load from them.
 *
 * @param users concurrent users of this injector: its share of -Dusers
 * @param duration how long each user keeps sending; zero with a staircase ({@code curve})
 * @param valueSizes bytes of random text per written value: one size, a range or sizes with weights, by key
 * @param database the CouchDB database written and read by CouchSet and CouchGet
 * @param warmup how long the unmeasured warm-up runs before the measured load; zero for none
 * @param pipeline memcache requests each user sends at once, then the next as many once all are answered (-Dpipeline;
 *     memtier's --pipeline); 1 for none
 * @param usersPerConnection memcache virtual users sharing one connection (-DusersPerConnection), so that
 *     {@code users / usersPerConnection} connections carry them; 1 gives each user its own
 * @param injector this injector's share of the users, and the space of its keys
 * @param rounds how many times the measured load runs, one round after the other, the warm-up once before the first
 * @param curve with -Dtargets, a staircase of target rates (this injector's share of each) instead of sending back to
 *     back for -Dduration; with -DratePerConnection, one step of that rate on every connection for -Dduration
 * @param ratePerConnection -DratePerConnection: the requests a second each connection carries at most, each sent at its
 *     intended start (memtier's --rate-limiting); 0 for none
 * @param reconnectEvery -DreconnectEvery: the memcache requests a connection carries before it is closed and another
 *     opened (memtier's --reconnect-interval); 0 for never
 * @param expiry -Dexpiry: how long each memcache set's value lives (memtier's --expiry-range); none by default
 */
public record SiegePlan(int users, Duration duration, ValueSizes valueSizes, String database, Duration warmup,
    int pipeline, int usersPerConnection, InjectorShare injector, Rounds rounds, Optional<CurvePlan> curve,
    double ratePerConnection, int reconnectEvery, Expiry expiry) {

  /** The seed's author's production peak was 180 concurrent users; 50 is gentler on a laptop. */
  public static final int DEFAULT_USERS = 50;

  /** Seconds per run by default. */
  public static final int DEFAULT_DURATION = 60;

  /** Bytes per value by default. */
  public static final int DEFAULT_VALUE_SIZE = 100;

  /**
   * Seconds of warm-up by default: the JIT compiles Gatling's, Netty's and couchbench's request
   * paths on the cores the load runs on, and on 2 cores its C2 compiler was still busy 5 s into a
   * memcache run (a third of a core), which ran at 70k gets/s after 5 s of warm-up and 105k after 10.
   */
  public static final int DEFAULT_WARMUP = 10;

  /** The deepest pipeline, and the most users on one connection: memtier's users rarely go past a few hundred. */
  public static final int MAX_PIPELINE = 1024;

  /** The prefix of the warm-up's request and scenario names, which summaries leave out. */
  public static final String WARMUP = "warm-up ";

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings users, duration (seconds), valueSize, database, warmup (seconds), pipeline, usersPerConnection,
   *     injector, rounds, and a staircase's ({@link CurvePlan#from})
   * @return the plan
   * @throws SettingsException naming a setting that does not parse, or one a staircase leaves without effect
   */
  public static SiegePlan from(Settings settings) {
    Optional<String> ratio = settings.value("ratio");
    if (ratio.isPresent()) {
      throw ratioIsWorkloads(ratio.get());
    }
    InjectorShare injector = InjectorShare.from(settings);
    Optional<CurvePlan> curve = CurvePlan.from(settings).map(steps -> steps.shareOf(injector));
    double ratePerConnection = settings.value("ratePerConnection").isPresent()
        ? settings.doubleValue("ratePerConnection", 0) : 0;
    String withoutEffect = curve.isPresent() && settings.value("duration").isPresent() ? "-Dduration"
        : curve.isPresent() && ratePerConnection != 0 ? "-DratePerConnection"
        : Rounds.from(settings).repeated() ? "-Drounds" : settings.intValue("pipeline", 1, 1) > 1 ? "-Dpipeline" : "";
    if (curve.isPresent() && !withoutEffect.isEmpty()) {
      throw new SettingsException(withoutEffect + " does not go with -Dtargets: a staircase runs each rate for"
          + " -DsettleSeconds then -DstepSeconds, one operation at a time per user; leave " + withoutEffect + " out");
    }
    if (ratePerConnection != 0 && !withoutEffect.isEmpty()) {
      throw new SettingsException(withoutEffect + " does not go with -DratePerConnection: each user sends one"
          + " operation at a time, at its intended start; leave " + withoutEffect + " out");
    }
    if (settings.value("ratePerConnection").isPresent() && !(ratePerConnection > 0)) {
      throw new SettingsException("-DratePerConnection=" + settings.value("ratePerConnection").get() + " is not a"
          + " rate above 0: give the requests a second each connection carries at most, e.g. -DratePerConnection=100");
    }
    int users = injector.atLeastOne("users", settings.intValue("users", DEFAULT_USERS, 1));
    int usersPerConnection = atMostMax(settings, "usersPerConnection", "1 (a connection per user)");
    Duration duration = Duration.ofSeconds(curve.isPresent() ? 0 : settings.intValue("duration", DEFAULT_DURATION, 1));
    if (ratePerConnection > 0) {
      // One step at the rate of every connection, for -Dduration: the staircase's pacing, from the first request.
      curve = Optional.of(CurvePlan.steady(ratePerConnection * users / usersPerConnection, duration));
    }
    return new SiegePlan(users,
        // A staircase's length is its steps': -Dduration is not read, so that results.json does not list it.
        curve.isPresent() ? Duration.ZERO : duration,
        ValueSizes.parse(settings.get("valueSize", String.valueOf(DEFAULT_VALUE_SIZE))),
        DatabaseNames.fromSettings(settings, "couchbench_siege"),
        Duration.ofSeconds(settings.intValue("warmup", DEFAULT_WARMUP, 0)),
        atMostMax(settings, "pipeline", "1 (no pipelining)"), usersPerConnection, injector, Rounds.from(settings),
        curve, ratePerConnection, settings.intValue("reconnectEvery", 0, 0), Expiry.parse(settings.get("expiry", "0")));
  }

  // memtier's --ratio mixes sets and gets on one connection. Here each siege simulation sends one kind of request, as
  // the seed's pages did, and Workload is the mix, its reads checked: the refusal gives Workload's settings for it.
  private static SettingsException ratioIsWorkloads(String ratio) {
    Matcher parts = Pattern.compile("\\s*(\\d{1,6})\\s*:\\s*(\\d{1,6})\\s*").matcher(ratio);
    String workload = "sets and gets mixed on one connection are Workload's (docs/workloads.md)";
    if (!parts.matches() || Integer.parseInt(parts.group(1)) + Integer.parseInt(parts.group(2)) == 0) {
      return new SettingsException("-Dratio=" + ratio + " does not parse as sets:gets (e.g. -Dratio=1:10); and "
          + workload);
    }
    BigDecimal sets = new BigDecimal(parts.group(1));
    BigDecimal update = sets.divide(sets.add(new BigDecimal(parts.group(2))), 4, RoundingMode.HALF_EVEN);
    return new SettingsException("-Dratio=" + ratio + ": MemSet and MemGet each send one kind of request, as the"
        + " seed's pages did; " + workload + ": -Dsimulation=Workload -Dsystem=memcache -Dupdate="
        + update.stripTrailingZeros().toPlainString() + " -Dread=" + BigDecimal.ONE.subtract(update)
        .stripTrailingZeros().toPlainString() + " (an update is a set of the record, and every read is checked)");
  }

  private static int atMostMax(Settings settings, String name, String none) {
    int value = settings.intValue(name, 1, 1);
    if (value > MAX_PIPELINE) {
      throw new SettingsException("-D" + name + "=" + value + " is more than " + MAX_PIPELINE + ": give -D" + name
          + " between " + none + " and " + MAX_PIPELINE);
    }
    return value;
  }

  /**
   * The names a request has over the run, for a server counter that counts them all ({@code RunOutput.countOnServer}).
   *
   * @param request the request's name with one round, e.g. {@code memcache set}
   * @param warmUp names of its warm-up that the counter also counts, e.g. {@code warm-up memcache set}: the warm-up
   *     runs once, under one name
   * @return the request's name in every round, in order ({@link Rounds#name}), then {@code warmUp}
   */
  public String[] requestNames(String request, String... warmUp) {
    return Stream.concat(rounds.numbers().stream().map(round -> rounds.name(request, round)), Stream.of(warmUp))
        .toArray(String[]::new);
  }

  /**
   * The populations of a siege run in the order they run, for
   * {@link couchbench.gatling.Populations#oneAfterAnother}: the warm-up once, unless -Dwarmup=0, then the rounds, one
   * after the other, each whole.
   *
   * @param warmUp the warm-up's population
   * @param round the population of a round, given its number, 1 to R
   * @return the populations
   */
  public List<PopulationBuilder> warmUpThenRounds(PopulationBuilder warmUp, IntFunction<PopulationBuilder> round) {
    List<PopulationBuilder> populations = new ArrayList<>();
    if (!warmup.isZero()) {
      populations.add(warmUp);
    }
    rounds.numbers().forEach(number -> populations.add(round.apply(number)));
    return populations;
  }

  /**
   * @param name a request or scenario name
   * @return whether it names the warm-up's requests, which summaries leave out
   */
  public static boolean isWarmUp(String name) {
    return name.startsWith(WARMUP);
  }

  /**
   * For the simulations that send only HTTP (CouchSet, CouchGet), which run no warm-up and have no pipelining here: a
   * pipeline depth or shared connections would be settings without effect.
   *
   * @param simulation the simulation's name, for the message
   * @return this plan without a warm-up, so that its page claims none
   * @throws SettingsException when -Dpipeline or -DusersPerConnection is above 1, or -DreconnectEvery or -Dexpiry is set
   */
  public SiegePlan forHttp(String simulation) {
    String given = pipeline > 1 ? "-Dpipeline=" + pipeline
        : usersPerConnection > 1 ? "-DusersPerConnection=" + usersPerConnection
        : reconnectEvery > 0 ? "-DreconnectEvery=" + reconnectEvery : "";
    if (!given.isEmpty()) {
      throw new SettingsException(given + " applies to memcache requests only: " + simulation
          + " sends one HTTP request at a time on each connection, as siege does; leave " + given.split("=")[0]
          + " out");
    }
    if (expiry.expires()) {
      throw new SettingsException("-Dexpiry applies to memcache values only: CouchDB's documents do not expire;"
          + " leave -Dexpiry out");
    }
    return new SiegePlan(users, duration, valueSizes, database, Duration.ZERO, pipeline, usersPerConnection, injector,
        rounds, curve, ratePerConnection, reconnectEvery, expiry);
  }

  /**
   * For MemGet, whose gets read each key's expiry time from the key it draws, as MemSet stamped it.
   *
   * @return this plan
   * @throws SettingsException when -Dexpiry is set: it applies to sets
   */
  public SiegePlan forGets() {
    if (expiry.expires()) {
      throw new SettingsException("-Dexpiry applies to MemSet's sets: MemGet reads the expiry time each key of MemSet's"
          + " key file carries; leave -Dexpiry out here and give it to MemSet");
    }
    return this;
  }

  /**
   * @return the load in words for a summary, e.g. "16 users sending back to back for 60 s", the rounds when there
   *     are several, and how memcache requests are sent when pipelined or on shared connections
   */
  public String describeLoad() {
    String load = (ratePerConnection > 0 ? String.format(Locale.ROOT, "%d users, each connection carrying %s"
            + " requests a second (-DratePerConnection), each at its intended start: ", users,
            new BigDecimal(ratePerConnection).stripTrailingZeros().toPlainString()) + curve.orElseThrow().describe()
        : curve.map(steps -> users + " users, each operation at its intended start, the users sharing each step's"
            + " rate: " + steps.describe()).orElse(users + " users sending back to back for " + duration.toSeconds() + " s"))
        + (injector.alone() ? "" : " (injector " + injector + "'s share)")
        + (rounds.repeated() ? ", in each of " + rounds.count() + " rounds, one after the other" : "");
    if (pipeline > 1) {
      load += "; each user sends " + pipeline + " memcache requests at once on its connection, then the next "
          + pipeline + " once all are answered (pipeline depth " + pipeline + ")";
    }
    if (usersPerConnection > 1) {
      load += "; " + usersPerConnection + " users share each memcache connection, so up to " + usersPerConnection
          + " of their requests are in flight on it";
    }
    if (reconnectEvery > 0) {
      load += "; each memcache connection is closed and another opened after " + reconnectEvery + " requests"
          + " (-DreconnectEvery), at the first request that finds it idle";
    }
    if (expiry.expires()) {
      load += "; " + expiry.describe();
    }
    return load;
  }

  /** @return how a warm-up names what it measures: {@link #WARMUP} before the name, which summaries leave out */
  public static UnaryOperator<String> warmUpNames() {
    return name -> WARMUP + name;
  }

  /**
   * @param system what the staircase loads, for its lines: the simulation's name
   * @return with -Dtargets, the staircase this run's users climb; empty without
   */
  public Optional<StaircaseLoad> newStaircase(String system) {
    return curve.map(steps -> new StaircaseLoad(steps, system, users, Console::say));
  }

  /**
   * One round of siege in Gatling's words, the same for the four halves: the plan's users at once, each sending its
   * transaction back to back for the duration, a begun one finished as siege finishes a transaction; with -Dtargets,
   * each climbs the staircase instead, one transaction at each intended start, step after step.
   *
   * @param scenario the round's scenario name
   * @param transaction one transaction
   * @param staircase the run's staircase ({@link #newStaircase}); empty without -Dtargets
   * @return the round's users
   */
  public PopulationBuilder round(String scenario, ChainBuilder transaction, Optional<StaircaseLoad> staircase) {
    ScenarioBuilder siege = scenario(scenario);
    return staircase.map(steps -> siege.exec(steps.climb(transaction)))
        .orElseGet(() -> LoadLoop.during(siege, duration, transaction))
        .injectOpen(atOnceUsers(users));
  }

  /**
   * The warm-up before the rounds, unmeasured: the plan's users at once, each sending its transaction back to back for
   * -Dwarmup.
   *
   * @param simulation the simulation's name, which its scenario's name takes after {@link #WARMUP}
   * @param transaction one transaction, its requests named by {@link #warmUpNames}
   * @return the warm-up's users, for {@link #warmUpThenRounds}
   */
  public PopulationBuilder warmUp(String simulation, ChainBuilder transaction) {
    return scenario(WARMUP + simulation).during(warmup).on(transaction).injectOpen(atOnceUsers(users));
  }

  /** @return a new md5 memcache key of this injector's own space ({@link #newKey}) */
  public String newMd5Key() {
    return newKey(Md5Keys.random());
  }

  /** @return a new CouchDB document id of this injector's own space ({@link #newKey}): a random unsigned long */
  public String newDocId() {
    return newKey(Long.toUnsignedString(ThreadLocalRandom.current().nextLong()));
  }

  /**
   * A new key or id of this injector's own space: the random part as it is for one injector, prefixed for one of
   * several ({@link InjectorShare#keyPrefix}), so that two injectors never write the same key.
   *
   * @param random the random part, e.g. an md5 hex digest
   * @return the key
   */
  String newKey(String random) {
    return injector.alone() ? random : injector.keyPrefix() + random; // per request: no copy for one injector
  }

  /**
   * The CSV key file a single-step simulation writes or reads.
   *
   * @param settings keyFile
   * @param defaultKeyFile the key file when -DkeyFile is not given
   * @return the key file's path
   */
  public static Path keyFile(Settings settings, String defaultKeyFile) {
    return Path.of(settings.get("keyFile", defaultKeyFile));
  }
}
