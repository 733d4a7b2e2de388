package couchbench.cacheaside;

import couchbench.background.BackgroundPlan;
import couchbench.couchdb.DatabaseNames;
import couchbench.data.Expiry;
import couchbench.distributions.Distribution;
import couchbench.distributions.InsertSequence;
import couchbench.distributions.KeyChoosers;
import couchbench.requests.MemcacheDialect;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Settings;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * A CacheAside run's parameters: memcache in front of CouchDB, read through the cache and written to the database,
 * each update then invalidating the cache, over -Dkeys documents drawn by -Ddistribution; as fast as -Dthreads users
 * go, for -Dduration seconds or -Doperations operations (Workload's words).
 *
 * @param keys documents loaded into CouchDB before the load, one cache key each
 * @param distribution how the keys of reads and updates are drawn: zipfian or uniform
 * @param zipfianConstant the zipfian constant, in (0, 1)
 * @param ttl seconds a value set in the cache after a miss lives (memcache's exptime); 0 for no expiry
 * @param read the share of the operations that are reads, from 0 to 1
 * @param update the share that are updates, 1 - read
 * @param invalidate what an update does to the cache after CouchDB stored it
 * @param valueSize characters of text in each document
 * @param threads virtual users, each sending one operation after the other
 * @param duration how long the operations run, when {@code operations} is 0
 * @param operations operations in all, spread over the threads; 0 to run for {@code duration}
 * @param database the CouchDB database the run creates (replacing an earlier run's) and loads; kept after the run
 * @param hot the hot keys read by a share of the reads, for stampedes; none by default
 * @param protect how a read of a key that expired keeps the other users away from CouchDB: none, or meta
 * @param protocol the memcache protocol asked for (-Dprotocol): text (get, set, delete) or meta (mg, ms, md); always
 *     meta with -Dprotect=meta, whose requests are the meta protocol's
 */
public record CacheAsidePlan(int keys, Distribution distribution, double zipfianConstant, int ttl, double read,
    double update, Invalidation invalidate, int valueSize, int threads, Duration duration, long operations,
    String database, HotKeys hot, Protection protect, MemcacheDialect protocol) {

  /**
   * -Dhot documents besides the -Dkeys, hot000, hot001, ..., read and never updated, each drawn alike by a -DhotReads
   * share of the reads, cached with -Dttl like the others: a short TTL makes each expire while many users read it.
   *
   * @param count the hot keys, 0 for none
   * @param reads the share of the reads that go to them, from 0 to 1
   */
  public record HotKeys(int count, double reads) {

    /** @return the document id of hot key {@code index}, e.g. hot007 */
    public static String id(int index) {
      return String.format(Locale.ROOT, "hot%03d", index);
    }

    /** @return every hot key's document id, in order */
    public List<String> ids() {
      return IntStream.range(0, count).mapToObj(HotKeys::id).toList();
    }
  }

  /** How the reads of a key that expired keep the other users away from CouchDB (-Dprotect). */
  public enum Protection {
    /** None: every user that misses reads CouchDB and sets the key, as the first slice does. */
    NONE,
    /**
     * memcached's meta protocol: {@code mg <key> v N<s> R<s>} vivifies a missing key and lets one reader win its
     * recache (W); the others see Z and serve the value cached, or wait for the winner's when it has none yet.
     */
    META;

    /** @return its name as -Dprotect takes it */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Hot keys at most: a stampede needs many users on each one. */
  public static final int MOST_HOT_KEYS = 1000;

  /** The share of the reads that go to the hot keys by default. */
  public static final double DEFAULT_HOT_READS = 0.5;

  /** What an update does to the cache once CouchDB has stored the new version. */
  public enum Invalidation {
    /** The key is deleted: the next read misses and fetches the new version from CouchDB. */
    DELETE,
    /** The new version is set under the key, with the TTL: the next read hits. */
    SET;

    /** @return its name as -Dinvalidate takes it */
    public String word() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Keys by default: a small catalogue that a local memcached holds whole. */
  public static final int DEFAULT_KEYS = 10_000;

  /** The TTL by default, in seconds. */
  public static final int DEFAULT_TTL = 300;

  /** The read share by default: a read-mostly cache, as in front of a database. */
  public static final double DEFAULT_READ = 0.95;

  /** Threads by default, as Workload's. */
  public static final int DEFAULT_THREADS = 16;

  /** Seconds of operations by default. */
  public static final int DEFAULT_DURATION = 30;

  /** Characters of text per document by default. */
  public static final int DEFAULT_VALUE_SIZE = 100;

  /** YCSB's zipfian constant. */
  public static final double ZIPFIAN_CONSTANT = 0.99;

  // Decimal fractions such as 0.95 + 0.05 are not exact in binary.
  private static final double SUM_TOLERANCE = 1e-9;

  /**
   * @param settings keys, distribution, zipfianConstant, ttl, read, update, invalidate, valueSize, threads, duration,
   *     operations, database, hot, hotReads, protect, protocol
   * @return the plan
   * @throws CacheAsideException naming the property and what to give instead, before any load
   */
  public static CacheAsidePlan from(Settings settings) {
    Protection protect = protection(settings.get("protect", "none"));
    MemcacheDialect protocol = MemcacheDialect.asked(settings);
    if (protect == Protection.META && protocol == MemcacheDialect.TEXT && settings.value("protocol").isPresent()) {
      throw new CacheAsideException("-Dprotect=meta with -Dprotocol=text: the stampede protection is the meta"
          + " protocol's (mg, ms, md); leave -Dprotocol out, or -Dprotect");
    }
    if (!InjectorShare.from(settings).alone()) {
      throw new CacheAsideException("-Dinjector: CacheAside runs on one injector (its documents' revisions are one"
          + " process's); leave -Dinjector out");
    }
    String distributionName = settings.get("distribution", "zipfian").strip();
    Distribution distribution = switch (distributionName) {
      case "zipfian" -> Distribution.ZIPFIAN;
      case "uniform" -> Distribution.UNIFORM;
      default -> throw new CacheAsideException("-Ddistribution=" + distributionName + " is not a distribution"
          + " CacheAside draws keys by: give -Ddistribution=zipfian (the default) or uniform");
    };
    double zipfianConstant = settings.doubleValue(KeyChoosers.ZIPFIAN_CONSTANT, ZIPFIAN_CONSTANT);
    double[] shares = shares(settings);
    long operations = settings.operationsInsteadOfDuration();
    CacheAsidePlan plan = new CacheAsidePlan(settings.intValue("keys", DEFAULT_KEYS, 1), distribution, zipfianConstant,
        ttl(settings.get("ttl", String.valueOf(DEFAULT_TTL))), shares[0], shares[1],
        invalidation(settings.get("invalidate", "delete")), settings.intValue("valueSize", DEFAULT_VALUE_SIZE, 1),
        settings.intValue("threads", DEFAULT_THREADS, 1),
        Duration.ofSeconds(operations > 0 ? 0 : settings.intValue("duration", DEFAULT_DURATION, 1)), operations,
        DatabaseNames.fromSettings(settings, "couchbench_cacheaside"), hotKeys(settings), protect,
        protect == Protection.META ? MemcacheDialect.META : protocol);
    try {
      plan.keyChoosers();
    } catch (IllegalArgumentException outOfRange) { // the distributions' own one line, e.g. -DzipfianConstant=1.0
      throw new CacheAsideException(outOfRange.getMessage());
    }
    return plan;
  }

  /**
   * @param settings the run's settings
   * @return whether -Dbackground empties the cache during the load (restart-cache), whose memcache requests then fail
   *     while memcached restarts
   */
  public static boolean emptiesTheCache(Settings settings) {
    return BackgroundPlan.from(settings).filter(BackgroundPlan::emptiesTheCache).isPresent();
  }

  /**
   * @return the run's key choosers over the documents loaded, key numbers 0 to keys - 1; a user's from
   *     {@link KeyChoosers#forUser}
   * @throws IllegalArgumentException when the zipfian constant is outside (0, 1)
   */
  public KeyChoosers keyChoosers() {
    return KeyChoosers.forRun(distribution, keys, 0, zipfianConstant, new InsertSequence(keys));
  }

  /**
   * @return the load in words, e.g. "read 0.95, update 0.05 (then delete from the cache), zipfian over 10,000 keys of
   *     100 characters, TTL 300 s; 16 threads for 30 s"
   */
  public String describe() {
    return "read " + read + ", update " + update + " (then " + invalidate.word() + " in the cache), "
        + distribution.lowerCase() + " over " + String.format(Locale.ROOT, "%,d", keys) + " keys of " + valueSize
        + " characters, TTL " + (ttl == 0 ? "none" : ttl + " s") + "; " + threads + " threads "
        + (operations > 0 ? "for " + String.format(Locale.ROOT, "%,d", operations) + " operations"
            : "for " + duration.toSeconds() + " s") + ", as fast as they go"
        + (hot.count() > 0 ? "; " + hot.count() + " hot key" + (hot.count() == 1 ? "" : "s") + " taking " + hot.reads()
            + " of the reads" : "")
        + (protect == Protection.META ? "; stampedes held off by the meta protocol (-Dprotect=meta)" : "");
  }

  /**
   * @return the warning of hot keys that never expire (-Dttl=0), so that no stampede comes; empty otherwise
   */
  public Optional<String> warning() {
    return hot.count() > 0 && ttl == 0 ? Optional.of("-Dhot=" + hot.count() + " with -Dttl=0: the hot keys never"
        + " expire, so no stampede comes; give a short TTL, e.g. -Dttl=2") : Optional.empty();
  }

  private static HotKeys hotKeys(Settings settings) {
    int count = settings.intValue("hot", 0, 0);
    if (count > MOST_HOT_KEYS) {
      throw new CacheAsideException("-Dhot=" + count + " is more hot keys than " + MOST_HOT_KEYS + ": a stampede needs"
          + " many users on each; give -Dhot=" + MOST_HOT_KEYS + " or fewer");
    }
    return new HotKeys(count, count == 0 ? 0 : settings.value("hotReads").isPresent()
        ? proportion(settings, "hotReads") : settings.doubleValue("hotReads", DEFAULT_HOT_READS));
  }

  private static Protection protection(String value) {
    return switch (value.strip()) {
      case "none" -> Protection.NONE;
      case "meta" -> Protection.META;
      default -> throw new CacheAsideException("-Dprotect=" + value + " is not a stampede protection: give"
          + " -Dprotect=meta (memcached's meta protocol: one reader recaches, the others serve the value cached) or"
          + " none (the default)");
    };
  }

  // -Dread and -Dupdate: one given alone sets the other to the rest of 1; both given must add up to 1.
  private static double[] shares(Settings settings) {
    boolean readGiven = settings.value("read").isPresent();
    boolean updateGiven = settings.value("update").isPresent();
    double read = readGiven ? proportion(settings, "read") : DEFAULT_READ;
    double update = updateGiven ? proportion(settings, "update") : rest(read);
    if (!readGiven && updateGiven) {
      read = rest(update);
    }
    if (readGiven && updateGiven && Math.abs(read + update - 1) > SUM_TOLERANCE) {
      throw new CacheAsideException("-Dread=" + read + " and -Dupdate=" + update + " add up to " + (read + update)
          + ", not 1: give them so that they add up to 1 (e.g. -Dread=0.9 -Dupdate=0.1), or give one alone");
    }
    return new double[] {read, update};
  }

  private static double proportion(Settings settings, String property) {
    double share = settings.doubleValue(property, 0);
    if (!(share >= 0 && share <= 1)) {
      throw new CacheAsideException("-D" + property + "=" + share + " is not a proportion: give a value from 0 to 1");
    }
    return share;
  }

  // memcache's exptime: seconds as -Dexpiry takes them (at most 30 days, which memcached would read as a date), one
  // value rather than a range.
  private static int ttl(String given) {
    Expiry ttl = Expiry.parse("ttl", given);
    if (ttl.low() != ttl.high()) {
      throw new CacheAsideException("-Dttl=" + given + " is a range: give one TTL in seconds, e.g. -Dttl=" + ttl.high()
          + ", or 0 for none");
    }
    return ttl.low();
  }

  // 1 - share in decimal, so that 0.95 leaves 0.05, not 0.050000000000000044.
  private static double rest(double share) {
    return BigDecimal.ONE.subtract(BigDecimal.valueOf(share)).doubleValue();
  }

  private static Invalidation invalidation(String value) {
    return switch (value.strip()) {
      case "delete" -> Invalidation.DELETE;
      case "set" -> Invalidation.SET;
      default -> throw new CacheAsideException("-Dinvalidate=" + value + " is not an invalidation: give"
          + " -Dinvalidate=delete (an update deletes the key from the cache, the default) or set (it sets the new"
          + " version)");
    };
  }
}
