package couchbench.siege;

import couchbench.couchdb.DatabaseNames;
import couchbench.rounds.Rounds;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import io.gatling.javaapi.core.PopulationBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * The parameters of seed 000's load shape, as siege ran it: {@code users} concurrent users, each sending requests
 * back to back for {@code duration}, no think time (a closed model), in each of {@code rounds} rounds one after the
 * other. The simulations build that load from them.
 *
 * @param users concurrent users of this injector: its share of -Dusers
 * @param duration how long each user keeps sending
 * @param valueSize bytes of random text per written value
 * @param database the CouchDB database written and read by CouchSet and CouchGet
 * @param warmup how long the unmeasured warm-up runs before the measured load; zero for none
 * @param pipeline memcache requests in flight per connection: {@code users} connections, each
 *     shared by {@code pipeline} virtual users (memtier's --pipeline); 1 for none
 * @param injector this injector's share of the users, and the space of its keys
 * @param rounds how many times the measured load runs, one round after the other, the warm-up once before the first
 */
public record SiegePlan(int users, Duration duration, int valueSize, String database, Duration warmup,
    int pipeline, InjectorShare injector, Rounds rounds) {

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

  /** The deepest pipeline: memtier's users rarely go past a few hundred either. */
  public static final int MAX_PIPELINE = 1024;

  /** The prefix of the warm-up's request and scenario names, which summaries leave out. */
  public static final String WARMUP = "warm-up ";

  /**
   * Reads the plan from the run's settings.
   *
   * @param settings users, duration (seconds), valueSize, database, warmup (seconds), pipeline, injector, rounds
   * @return the plan
   */
  public static SiegePlan from(Settings settings) {
    InjectorShare injector = InjectorShare.from(settings);
    int pipeline = settings.intValue("pipeline", 1, 1);
    if (pipeline > MAX_PIPELINE) {
      throw new SettingsException("-Dpipeline=" + pipeline + " is more than " + MAX_PIPELINE
          + ": give -Dpipeline between 1 (no pipelining) and " + MAX_PIPELINE);
    }
    return new SiegePlan(
        injector.atLeastOne("users", settings.intValue("users", DEFAULT_USERS, 1)),
        Duration.ofSeconds(settings.intValue("duration", DEFAULT_DURATION, 1)),
        settings.intValue("valueSize", DEFAULT_VALUE_SIZE, 0),
        DatabaseNames.fromSettings(settings, "couchbench_siege"),
        Duration.ofSeconds(settings.intValue("warmup", DEFAULT_WARMUP, 0)),
        pipeline, injector, Rounds.from(settings));
  }

  /**
   * @return the virtual users of a CouchVsMemcache memcache step: {@code users} connections, each shared by
   *     {@code pipeline} of them; {@code users} when there is no pipeline. (MemSet's and MemGet's users send their
   *     pipeline's requests at once instead: see {@link #describeLoad}.)
   */
  public int virtualUsers() {
    return users * pipeline;
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
   * For the simulations that send only HTTP, which has no pipelining here: a pipeline depth would
   * be a setting without effect.
   *
   * @param simulation the simulation's name, for the message
   * @return this plan
   * @throws SettingsException when -Dpipeline is above 1
   */
  public SiegePlan withoutPipeline(String simulation) {
    if (pipeline > 1) {
      throw new SettingsException("-Dpipeline=" + pipeline + " applies to memcache requests only: " + simulation
          + " sends one HTTP request at a time on each connection, as siege does; leave -Dpipeline out");
    }
    return this;
  }

  /**
   * @return the load in words for MemSet's and MemGet's summary, e.g. "16 users sending back to back for 60 s", the
   *     rounds when there are several, and how a pipeline depth is sent when there is one
   */
  public String describeLoad() {
    return pipeline == 1 ? load() : load() + "; each user sends " + pipeline + " memcache requests at once on its"
        + " connection, then the next " + pipeline + " once all are answered (pipeline depth " + pipeline + ")";
  }

  /**
   * @return the load in words for CouchVsMemcache's summary, where a pipeline depth is that many virtual users on
   *     each memcache connection
   */
  public String describeSharedLoad() {
    return pipeline == 1 ? load() : load() + "; memcache: " + users + " connections, each shared by " + pipeline
        + " virtual users, so up to " + pipeline + " requests in flight on each (pipeline depth " + pipeline + ")";
  }

  private String load() {
    return users + " users sending back to back for " + duration.toSeconds() + " s"
        + (injector.alone() ? "" : " (injector " + injector + "'s share)")
        + (rounds.repeated() ? ", in each of " + rounds.count() + " rounds, one after the other" : "");
  }

  /**
   * A new key or id of this injector's own space: the random part as it is for one injector, prefixed for one of
   * several ({@link InjectorShare#keyPrefix}), so that two injectors never write the same key.
   *
   * @param random the random part, e.g. an md5 hex digest
   * @return the key
   */
  public String newKey(String random) {
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
