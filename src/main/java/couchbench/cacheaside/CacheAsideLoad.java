package couchbench.cacheaside;

import static couchbench.memcache.MemcacheDsl.casUnique;
import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static couchbench.memcache.MemcacheDsl.metaFlag;
import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.doIf;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.pause;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.CouchHttp;
import couchbench.couchdb.CouchReply;
import couchbench.background.BackgroundPage;
import couchbench.data.RandomText;
import couchbench.distributions.KeyChooser;
import couchbench.distributions.KeyChoosers;
import couchbench.distributions.Mix;
import couchbench.gatling.WholeGroups;
import couchbench.requests.MemcacheDialect;
import couchbench.resources.MemcacheResources;
import couchbench.results.LoadColumn;
import couchbench.results.RunOutput;
import couchbench.results.Summary;
import couchbench.run.ExperimentLoad;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import couchbench.targets.TargetException;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import java.util.stream.IntStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.ObjectSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Cache-aside over memcache and CouchDB, as an application does it: a read gets the key from memcache, and on a miss
 * reads the document from CouchDB and sets it in memcache with the TTL; an update writes the document to CouchDB, then
 * deletes the key from memcache or sets the new version there (-Dinvalidate); with -Dprotect=meta, memcached's meta
 * protocol instead: a read's mg wins or loses the recache, and an update marks the key stale (md I) where it would
 * delete it. Each read is also timed whole, as the group {@link #HIT} or {@link #MISS}. The documents are loaded into
 * CouchDB before the load; the cache keys carry a tag of the run, so the cache starts empty for them even on a memcache
 * server an earlier run filled.
 */
public final class CacheAsideLoad implements ExperimentLoad<CacheAsideFigures> {

  /** A read's memcache get: found (a hit) or not (a miss), both OK. */
  public static final String GET = "memcache get";

  /**
   * A read that found an empty item another user was recaching (-Dprotect=meta), waited for its value and got it: the
   * get, the waits and the gets again.
   */
  public static final String WAITED = "cache-aside wait";

  /** A miss's read of the document from CouchDB. */
  public static final String COUCH_GET = "couchdb get";

  /** A miss's set of the document read into memcache, with the TTL. */
  public static final String SET = "memcache set";

  /** An update's write of the document's next version to CouchDB. */
  public static final String COUCH_UPDATE = "couchdb update";

  /** An update's delete of the key from memcache (-Dinvalidate=delete). */
  public static final String DELETE = "memcache delete";

  /**
   * An update's md with I (-Dinvalidate=delete with -Dprotect=meta): the key marked stale, not deleted, so that its
   * readers are served the old value, flagged stale (X), while the first of them to get it wins (W) and recaches it.
   */
  public static final String MARK_STALE = "memcache mark stale";

  /** An update's set of the new version in memcache (-Dinvalidate=set). */
  public static final String INVALIDATE_SET = "memcache set new version";

  /** seconds.csv's column of each second's hit ratio: its hits over its hits and misses, empty without a read. */
  public static final String HIT_RATIO_COLUMN = "hit ratio (hits over reads)";

  /** seconds.csv's column of the misses' CouchDB reads answered in each second: the database's reads a second. */
  public static final String COUCH_READS_COLUMN = "CouchDB reads (/s)";

  /**
   * seconds.csv's column of the stale reads of each second served a value memcached flagged stale while another user
   * recached it (-Dprotect=meta only).
   */
  public static final String STALE_ON_PURPOSE_COLUMN = "stale reads on purpose (/s)";

  /** seconds.csv's column of the other stale reads of each second: the race of a read with an invalidation. */
  public static final String STALE_BY_RACE_COLUMN = "stale reads by the race (/s)";

  /**
   * results.json's server count of CouchDB's document reads over the load (couchdb.database_reads, summed over a
   * cluster's nodes), held against the {@link #COUCH_GET} requests.
   */
  public static final String DATABASE_READS = "couchdb database_reads";

  /** The group timing a read that found its key in memcache: the get. */
  public static final String HIT = "cache-aside hit";

  /** The group timing a read that did not: the get, CouchDB's read, the set. */
  public static final String MISS = "cache-aside miss";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int LOAD_BATCH = 1000;
  // memcached's item header with its CAS, and the slab's rounding up, about: what an item takes beyond key and value.
  private static final int ITEM_HEADER_BYTES = 64;
  private static final String FOUND_META = MemcacheDialect.META.found();
  private static final String MISSING_META = MemcacheDialect.META.missing();
  private static final String STORED_META = MemcacheDialect.META.stored();
  // An ms with C finds no item: it expired or was evicted since the mg that gave its cas, and nothing is stored.
  private static final String GONE_META = "NF";
  private static final String USER = "couchbench.cacheAside.user";
  private static final String READING = "couchbench.cacheAside.reading";
  private static final String DOC = "couchbench.cacheAside.doc";
  private static final String CACHE_KEY = "couchbench.cacheAside.cacheKey";
  private static final String OUTCOME = "couchbench.cacheAside.outcome";
  private static final String BODY = "couchbench.cacheAside.body";
  private static final String CACHED = "couchbench.cacheAside.cached";
  private static final String NEW_VERSION = "couchbench.cacheAside.newVersion";
  private static final String NEW_REV = "couchbench.cacheAside.newRev";
  private static final String NEW_NUMBER = "couchbench.cacheAside.newNumber";
  private static final String READ_START = "couchbench.cacheAside.readStart";
  private static final String UPDATE_STATUS = "couchbench.cacheAside.updateStatus";
  private static final String HOT = "couchbench.cacheAside.hot";
  private static final String GET_BEGAN = "couchbench.cacheAside.getBegan";
  private static final String WON = "couchbench.cacheAside.won";
  private static final String LOST = "couchbench.cacheAside.lost";
  private static final String CACHED_LENGTH = "couchbench.cacheAside.cachedLength";
  private static final String WAITS = "couchbench.cacheAside.waits";
  private static final String KIND = "couchbench.cacheAside.kind";
  private static final String CAS = "couchbench.cacheAside.cas";
  private static final String FLAGGED_STALE = "couchbench.cacheAside.flaggedStale";
  private static final String RECACHED = "couchbench.cacheAside.recached";
  private static final int CONFLICT = 409;
  // -Dprotect=meta: how long memcached keeps the empty item an mg's N made for a missing key, should its winner never
  // set it (protocol.txt's example's 30 s); a waiting reader gives up long before, after WAITS_AT_MOST waits of WAIT.
  private static final int VIVIFY_SECONDS = 30;
  private static final Duration WAIT = Duration.ofMillis(5);
  private static final int WAITS_AT_MOST = 200;
  // -Dprotect=meta: the most TTL left an mg's R wins a recache below, as protocol.txt's example's R30: a winner's
  // CouchDB read takes milliseconds, so earlier recaches of a long TTL would only add CouchDB reads.
  private static final int RECACHE_AT_MOST = 30;

  private final CacheAsidePlan plan;
  private final CouchTarget couchdb;
  private final MemcacheTarget memcached;
  // The protocol of the reads, sets and deletes without -Dprotect (-Dprotocol, text where a server has no meta).
  private final MemcacheDialect protocol;
  private final RunOutput run;
  private final String cachePrefix;
  private final KeyChoosers keyChoosers;
  private final Mix<Boolean> reads;
  private final AtomicInteger users = new AtomicInteger();
  // Each document's latest version acknowledged by CouchDB: its _rev, which the next update must carry, and its number.
  private final Map<String, Version> versions = new ConcurrentHashMap<>();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final LongAdder updates = new LongAdder();
  private final LongAdder conflicts = new LongAdder();
  private final LongAdder waited = new LongAdder();
  private final LongAdder servedDuringRecache = new LongAdder();
  private final HotKeyRefills refills;
  private final MissCauses missCauses;
  private OptionalLong evictionsBefore = OptionalLong.empty();
  private OptionalLong getExpiredBefore = OptionalLong.empty();
  private OptionalLong getFlushedBefore = OptionalLong.empty();
  private CacheAsideFigures.CacheMemory cacheMemory;
  private final ReadSeconds readSeconds = new ReadSeconds();
  private final StaleReads staleReads = new StaleReads();

  private record Version(String rev, long number) {

    int generation() {
      return Integer.parseInt(rev.substring(0, rev.indexOf('-')));
    }
  }

  // One virtual user's draws: its keys, whether each operation is a read, and whether a read goes to a hot key.
  private record User(int index, KeyChooser keys, ObjectSampler<Boolean> reads, UniformRandomProvider random) {}

  // What a read turned out to be, for its group.
  private enum Kind { HIT, WAITED, MISS }

  /**
   * @param plan the run's plan
   * @param couchdb the CouchDB server
   * @param memcached the memcache servers
   * @param run the run's output, where the servers' counters are held against the requests
   * @throws CacheAsideException when -Dprotect=meta and a memcache server does not answer the meta protocol's mn
   */
  public CacheAsideLoad(CacheAsidePlan plan, CouchTarget couchdb, MemcacheTarget memcached, RunOutput run) {
    if (plan.protect() == CacheAsidePlan.Protection.META) {
      memcached.withoutMetaProtocol().stream().findFirst().ifPresent(server -> {
        throw new CacheAsideException("-Dprotect=meta: " + server + ", so it has no meta protocol and no stampede"
            + " protection; leave -Dprotect out, or point -Dmemcache.servers at memcached 1.6 or later");
      });
    }
    this.plan = plan;
    this.couchdb = couchdb;
    this.memcached = memcached;
    this.protocol = plan.protect() == CacheAsidePlan.Protection.META ? MemcacheDialect.META
        : MemcacheDialect.spokenBy(plan.protocol(), memcached);
    this.run = run;
    this.cachePrefix = plan.database() + ":" + Long.toString(System.currentTimeMillis(), 36) + ":";
    this.keyChoosers = plan.keyChoosers();
    this.reads = Mix.of(Map.of(true, plan.read(), false, plan.update()));
    this.refills = new HotKeyRefills(plan.hot().ids());
    this.missCauses = new MissCauses(plan.ttl());
  }

  /**
   * Creates the database (replacing an earlier run's), loads the documents in batches of {@value #LOAD_BATCH}, and
   * reads the servers' counters that the requests are held against after the load.
   */
  @Override
  public void prepare() {
    plan.warning().ifPresent(Console::warn);
    CouchDbClient client = new CouchDbClient(couchdb);
    client.createDatabase(plan.database());
    for (int from = 0; from < plan.keys(); from += LOAD_BATCH) {
      loadBatch(client, IntStream.range(from, Math.min(plan.keys(), from + LOAD_BATCH)).mapToObj(CacheAsideLoad::id)
          .toList());
    }
    if (plan.hot().count() > 0) {
      loadBatch(client, plan.hot().ids());
    }
    Console.say("cache-aside: " + String.format("%,d", plan.keys() + plan.hot().count()) + " documents loaded into "
        + plan.database() + "; the cache keys start " + cachePrefix + ", none in the cache yet");
    run.countOnServer(CacheAsideSummary.SERVER_GETS, () -> MemcacheResources.count(memcached, "get_hits")
        + MemcacheResources.count(memcached, "get_misses"), GET);
    if (plan.protect() == CacheAsidePlan.Protection.NONE) {
      // An mg that vivifies a missing key counts among memcached's get_hits: its get_misses are no misses there.
      run.countOnServer(CacheAsideSummary.SERVER_MISSES, () -> MemcacheResources.count(memcached, "get_misses"),
          COUCH_GET);
    }
    run.countOnServer(DATABASE_READS, databaseReads(client), COUCH_GET);
    OptionalLong limit = MemcacheResources.countIfReported(memcached, "limit_maxbytes");
    evictionsBefore = MemcacheResources.countIfReported(memcached, "evictions");
    getExpiredBefore = MemcacheResources.countIfReported(memcached, "get_expired");
    getFlushedBefore = MemcacheResources.countIfReported(memcached, "get_flushed");
    if (limit.isPresent() && evictionsBefore.isPresent()) {
      long documents = plan.keys() + plan.hot().count();
      long bytes = documents * (cachePrefix.length() + id(0).length() + documentBytes() + ITEM_HEADER_BYTES);
      cacheMemory = new CacheAsideFigures.CacheMemory(limit.getAsLong(), bytes, 0);
      if (cacheMemory.outgrown()) {
        Console.warn(String.format(Locale.ROOT, "cache-aside: the %,d documents take about %,d MB cached, more than"
            + " memcache's %,d MB (limit_maxbytes): it will evict, and the hit ratio is then the cache's size's as"
            + " much as the key draw's and the TTL's; the evictions are counted. -Dkeys fewer, or more memory"
            + " (-Dmemcache.memory for the memcached couchbench starts)", documents, megabytes(bytes),
            megabytes(limit.getAsLong())));
      }
    }
  }

  private static long megabytes(long bytes) {
    return Math.round(bytes / (1024.0 * 1024.0));
  }

  // A cached value: the document's JSON with its revision, its text the largest part.
  private int documentBytes() {
    ObjectNode doc = document(id(0), "1-" + "0".repeat(32), 1);
    return doc.toString().length();
  }

  private void loadBatch(CouchDbClient client, List<String> ids) {
    ObjectNode body = JSON.createObjectNode();
    ArrayNode docs = body.putArray("docs");
    ids.forEach(id -> docs.add(document(id, null, 1)));
    CouchReply reply = client.exchange("POST", "/" + plan.database() + "/_bulk_docs", body.toString());
    JsonNode results = json(reply.body());
    if (reply.status() / 100 != 2 || !results.isArray() || results.size() != ids.size()) {
      throw new CacheAsideException("loading documents " + ids.get(0) + " to " + ids.get(ids.size() - 1) + " into "
          + plan.database()
          + " failed: " + reply.status() + " " + CouchDbClient.reason(reply.body()));
    }
    for (JsonNode result : results) {
      if (!result.hasNonNull("rev")) {
        throw new CacheAsideException("loading " + result.path("id").asText() + " into " + plan.database()
            + " failed: " + result.path("error").asText("no rev") + " " + result.path("reason").asText(""));
      }
      versions.put(result.path("id").asText(), new Version(result.path("rev").asText(), 1));
    }
  }

  /**
   * CouchDB's own count of document reads: couchdb.database_reads, which the node that reads a copy of the document
   * counts, so on a cluster summed over the nodes its GET /_membership names (-Dcouchdb.url's first node alone counts
   * only the copies it holds); pouchdb-server has no _stats. A cluster that holds more than one copy of a document
   * (-Dn) asks every copy for a read and answers after -Dr of them, and its nodes' copying between them reads
   * documents too: the sum then counts a read more than once, and more besides, and is no count of the reads; n/a,
   * saying so.
   */
  private LongSupplier databaseReads(CouchDbClient client) {
    List<String> nodes = client.clusterNodes();
    if (nodes.size() < 2) {
      return () -> databaseReads(client, "_local");
    }
    int copies = copies(client, plan.database());
    if (copies > 1) {
      return () -> {
        throw new CacheAsideException("on a cluster each read counts on every copy of its document CouchDB reads for"
            + " it, and " + plan.database() + " has " + copies + " copies of each (n=" + copies + "), so their sum over"
            + " the " + nodes.size() + " nodes is no count of reads; give -Dn=1 for one copy of each document and a"
            + " count of CouchDB's document reads");
      };
    }
    return () -> nodes.stream().mapToLong(node -> databaseReads(client, node)).sum();
  }

  // The most copies of any of the database's shard ranges: GET /db/_shards names each range's nodes.
  private static int copies(CouchDbClient client, String database) {
    int copies = 1;
    for (JsonNode nodes : client.shards(database).orElse(JSON.createObjectNode())) {
      copies = Math.max(copies, nodes.size());
    }
    return copies;
  }

  private static long databaseReads(CouchDbClient client, String node) {
    JsonNode reads = client.nodeStats(node).map(stats -> stats.path("couchdb").path("database_reads").path("value"))
        .orElseThrow(() -> new CacheAsideException("the server has no GET /_node/" + node + "/_stats (pouchdb-server"
            + " has none), so its document reads are not counted"));
    if (!reads.canConvertToLong()) {
      throw new CacheAsideException("the server's _stats of node " + node + " has no couchdb.database_reads");
    }
    return reads.asLong();
  }

  @Override
  public String describe() {
    return plan.describe() + (plan.protect() == CacheAsidePlan.Protection.NONE && protocol == MemcacheDialect.META
        ? "; memcached's meta protocol (mg, ms, md; -Dprotocol=meta)" : "");
  }

  @Override
  public List<String> couchDatabases() {
    return List.of(plan.database());
  }

  /** @return the step that gives a virtual user its draws: its keys, and reads or updates */
  public Function<Session, Session> newUser() {
    return session -> {
      var random = RandomSource.XO_RO_SHI_RO_128_PP.create();
      return session.set(USER, new User(users.getAndIncrement(), keyChoosers.forUser(random), reads.sampler(random),
          random));
    };
  }

  /** @return this user's share of -Doperations, the users' shares differing by one at most */
  public Function<Session, Integer> operationsOfUser() {
    return session -> share(plan.operations(), plan.threads(), ((User) session.get(USER)).index());
  }

  /**
   * @param operations operations in all
   * @param threads the users they are spread over
   * @param user a user's index, from 0
   * @return that user's share: the first {@code operations % threads} users one more than the others
   */
  static int share(long operations, int threads, int user) {
    return (int) (operations / threads + (user < operations % threads ? 1 : 0));
  }

  /**
   * @return one operation: a key drawn, then a read or an update of it; a read goes to a hot key by -DhotReads, an
   *     update never does
   */
  public ChainBuilder nextOperation() {
    return exec(session -> {
      User user = (User) session.get(USER);
      boolean reading = user.reads().sample();
      boolean hot = reading && plan.hot().count() > 0 && user.random().nextDouble() < plan.hot().reads();
      String id = hot ? CacheAsidePlan.HotKeys.id(user.random().nextInt(plan.hot().count())) : id(user.keys().next());
      return session.set(DOC, id).set(CACHE_KEY, cachePrefix + id).set(READING, reading).set(HOT, hot);
    }).doIfOrElse(session -> session.getBoolean(READING)).then(read()).orElse(update());
  }

  /**
   * A read: the lookup in the cache, then the group it turned out to be, timed from the first get's start: a hit is
   * the get alone; a read that waited for another user's recache (-Dprotect=meta) its gets and waits; a miss reads the
   * document from CouchDB and sets it in memcache with the TTL.
   */
  private ChainBuilder read() {
    return exec(session -> session.set(READ_START, WholeGroups.now()).set(GET_BEGAN, System.nanoTime())
        .remove(KIND))
        .exec(plan.protect() == CacheAsidePlan.Protection.META ? metaLookup() : lookup())
        .exec(session -> {
          if (!session.contains(KIND)) {
            readSeconds.cacheDown();
          }
          return session;
        })
        .doIf(session -> session.get(KIND) == Kind.HIT).then(group(HIT).on(exec(this::servedFromCache)))
        .doIf(session -> session.get(KIND) == Kind.WAITED).then(group(WAITED).on(exec(session -> {
          waited.increment();
          return servedFromCache(session);
        })))
        .doIf(session -> session.get(KIND) == Kind.MISS).then(group(MISS).on(exec(session -> {
          misses.increment();
          MissCauses.Won won = won(session);
          missCauses.missed(session.getString(DOC), session.getLong(GET_BEGAN), System.nanoTime(), won);
          if (session.getBoolean(HOT)) {
            refills.readCouchDb(session.getString(DOC), session.getLong(GET_BEGAN));
            if (won == MissCauses.Won.TTL_BELOW_R) {
              refills.recached(session.getString(DOC));
            }
          }
          return WholeGroups.startedAt(READ_START).apply(session.remove(BODY));
        })
            .exec(CouchHttp.stopOnRefusal(couchdb, http(COUCH_GET)
                .get(session -> "/" + plan.database() + "/" + session.getString(DOC))
                .check(status().is(200), bodyString().saveAs(BODY))))
            .exec(doIf(session -> session.contains(BODY)).then(exec(session -> {
              readSeconds.couchRead();
              judge(session, session.getString(BODY).getBytes(StandardCharsets.UTF_8), false);
              return session.remove(RECACHED);
            }).exec(recache())
                .exec(session -> {
                  boolean stored = !session.isFailed() && !GONE_META.equals(session.getString(RECACHED));
                  if (stored) {
                    long now = System.nanoTime();
                    missCauses.cached(session.getString(DOC), now);
                    if (session.getBoolean(HOT)) {
                      refills.cached(session.getString(DOC), session.getLong(GET_BEGAN), now);
                    }
                  }
                  return session;
                })))
            .exec(session -> {
              readSeconds.miss(session.getLong(GET_BEGAN));
              return session;
            })));
  }

  // A miss's mg that won the recache of a value still cached (-Dprotect=meta): flagged stale, or its TTL below R.
  private MissCauses.Won won(Session session) {
    if (plan.protect() == CacheAsidePlan.Protection.NONE || !session.contains(WON)
        || session.getInt(CACHED_LENGTH) == 0) {
      return MissCauses.Won.NONE;
    }
    return session.contains(FLAGGED_STALE) ? MissCauses.Won.FLAGGED_STALE : MissCauses.Won.TTL_BELOW_R;
  }

  // A hit, or a read that waited for another user's recache: counted, judged, and its group timed from its get.
  private Session servedFromCache(Session session) {
    hits.increment();
    readSeconds.hit(session.getLong(GET_BEGAN));
    judge(session, session.get(CACHED), session.contains(FLAGGED_STALE));
    return WholeGroups.startedAt(READ_START).apply(session);
  }

  // A read's version against the versions acknowledged before its get began: a stale one is counted, in its second.
  private void judge(Session session, byte[] document, boolean flaggedStale) {
    if (staleReads.read(session.getString(DOC), StaleReads.version(document), session.getLong(GET_BEGAN),
        flaggedStale)) {
      readSeconds.staleRead(flaggedStale);
    }
  }

  /**
   * A miss's set of the document it read. Without protection a set. With -Dprotect=meta an ms with the cas of the mg
   * that won the recache (C) and I, as protocol.txt has it: where an update's invalidation (md I, or the set of the new
   * version) landed between that mg and this set, the item's cas is newer, and memcached stores the version read marked
   * stale (X) rather than as fresh, so that its next reader wins the recache and reads CouchDB again; a plain set would
   * put the old version back for every read until the TTL. NF: the item expired or was evicted meanwhile, nothing
   * stored.
   */
  private ChainBuilder recache() {
    if (plan.protect() == CacheAsidePlan.Protection.NONE) {
      return exec(protocol.store(memcache(SET), session -> session.getString(CACHE_KEY),
          session -> session.getString(BODY)).exptime(plan.ttl()));
    }
    return exec(memcache(SET).metaSet(session -> session.getString(CACHE_KEY), session -> session.getString(BODY))
        .exptime(plan.ttl()).compareCas(session -> session.getLong(CAS)).metaFlags("I")
        .check(memcacheStatus().in(STORED_META, GONE_META).saveAs(RECACHED)));
  }

  // Without protection: a get (-Dprotocol=meta: an mg with v); found, a hit, else a miss.
  private ChainBuilder lookup() {
    return exec(session -> session.remove(OUTCOME).remove(CACHED))
        .exec(protocol.read(memcache(GET), session -> session.getString(CACHE_KEY)).missOk()
            .check(memcacheStatus().in(protocol.found(), protocol.missing()).saveAs(OUTCOME),
                bodyBytes().saveAs(CACHED)))
        .exec(session -> session.contains(OUTCOME)
            ? session.set(KIND, protocol.found().equals(session.getString(OUTCOME)) ? Kind.HIT : Kind.MISS) : session);
  }

  /**
   * -Dprotect=meta, as memcached's protocol.txt describes: {@code mg <key> v c N30 R<s>}. A missing key is vivified, an
   * empty item made, and the one reader that made it wins (W); a key whose TTL left is below R is won (W) by its first
   * reader, and so is the first reader of a key an update marked stale (X W); each winner is a miss, reads CouchDB and
   * sets the key with the mg's cas ({@link #recache}). A reader that finds another's win (Z) serves the value cached,
   * flagged stale (X) when an update marked it so; when the item is the empty one, there is no value to serve, and it
   * waits and gets again until the winner's value is there: a waited read. A reader that waited WAITS_AT_MOST times
   * (the winner failed) reads CouchDB as a miss.
   */
  private ChainBuilder metaLookup() {
    return exec(session -> session.set(WAITS, 0))
        .exec(metaGet())
        .asLongAs(session -> waitingForRecache(session) && session.getInt(WAITS) < WAITS_AT_MOST).on(
            pause(WAIT).exec(session -> session.set(WAITS, session.getInt(WAITS) + 1)).exec(metaGet()))
        .exec(session -> {
          if (!session.contains(OUTCOME)) {
            return session;
          }
          boolean served = FOUND_META.equals(session.getString(OUTCOME)) && !session.contains(WON)
              && session.getInt(CACHED_LENGTH) > 0;
          if (served && session.getInt(WAITS) == 0 && session.contains(LOST)) {
            servedDuringRecache.increment();
          }
          return session.set(KIND, !served ? Kind.MISS : session.getInt(WAITS) > 0 ? Kind.WAITED : Kind.HIT);
        });
  }

  private ChainBuilder metaGet() {
    List<String> flags = new ArrayList<>(List.of("v", "c", "N" + VIVIFY_SECONDS));
    if (plan.ttl() > 0) {
      flags.add("R" + recacheBelow(plan.ttl()));
    }
    return exec(session -> session.remove(OUTCOME).remove(WON).remove(LOST).remove(FLAGGED_STALE).remove(CAS)
        .remove(CACHED_LENGTH).remove(CACHED))
        .exec(memcache(GET).metaGet(session -> session.getString(CACHE_KEY)).metaFlags(flags.toArray(String[]::new))
            .missOk().check(memcacheStatus().in(FOUND_META, MISSING_META).saveAs(OUTCOME),
                metaFlag('W').optional().saveAs(WON), metaFlag('Z').optional().saveAs(LOST),
                metaFlag('X').optional().saveAs(FLAGGED_STALE), casUnique().optional().saveAs(CAS),
                bodyLength().saveAs(CACHED_LENGTH), bodyBytes().saveAs(CACHED)));
  }

  // The empty item another reader vivified and is filling: nothing to serve yet.
  private static boolean waitingForRecache(Session session) {
    return FOUND_META.equals(session.getString(OUTCOME)) && !session.contains(WON)
        && session.getInt(CACHED_LENGTH) == 0;
  }

  /**
   * @param ttl the TTL the keys are set with, seconds, above 0
   * @return the TTL left below which an mg's R wins a recache: half the TTL and one, since memcached counts the TTL
   *     left in whole seconds, from the TTL down to 1, and {@value #RECACHE_AT_MOST} at most (protocol.txt's R30); so a
   *     key read on is recached in the second half of its life or its last 30 s, its readers served meanwhile, and
   *     never at each read (a 1 s key's TTL left is never below 1: it expires and is vivified). Each recache is a
   *     CouchDB read: a key read on is read every TTL less R and one seconds (memcached's clock ticks once a second),
   *     where without protection it is read once per expiry, every TTL: about twice as often up to a TTL of 58 s
   *     (exactly at an even TTL; a 2 s TTL's R2 wins at the first tick after the set), 300 / 271 at the default 300 s
   */
  static int recacheBelow(int ttl) {
    return Math.min(ttl / 2 + 1, RECACHE_AT_MOST);
  }

  /**
   * An update: the document's next version written to CouchDB with the _rev last acknowledged; a 409 (another user's
   * update of the same document came first) is a conflict, counted, and leaves the cache alone; a stored version is
   * then deleted from the cache (with -Dprotect=meta marked stale), or set there.
   */
  private ChainBuilder update() {
    return exec(session -> {
      String id = session.getString(DOC);
      Version current = versions.get(id);
      updates.increment();
      return session.set(NEW_NUMBER, current.number() + 1)
          .set(NEW_VERSION, document(id, current.rev(), current.number() + 1).toString())
          .remove(NEW_REV).remove(UPDATE_STATUS);
    })
        .exec(CouchHttp.stopOnRefusal(couchdb, http(COUCH_UPDATE)
            .put(session -> "/" + plan.database() + "/" + session.getString(DOC))
            .body(StringBody(session -> session.getString(NEW_VERSION)))
            .check(status().in(201, 202, 409).saveAs(UPDATE_STATUS), jsonPath("$.rev").optional().saveAs(NEW_REV))))
        .exec(session -> {
          if (session.contains(UPDATE_STATUS) && session.getInt(UPDATE_STATUS) == CONFLICT) {
            conflicts.increment();
          }
          if (!session.contains(NEW_REV)) {
            return session;
          }
          // Before the merge: the next update of the document, carrying this _rev, is acknowledged after this one.
          staleReads.acknowledged(session.getString(DOC), session.getLong(NEW_NUMBER), System.nanoTime());
          Version stored = new Version(session.getString(NEW_REV), session.getLong(NEW_NUMBER));
          versions.merge(session.getString(DOC), stored, (old, now) -> now.generation() > old.generation() ? now : old);
          return session;
        })
        .doIf(session -> session.contains(NEW_REV)).then(invalidation());
  }

  // With -Dinvalidate=set the new version is set under either protection: it is the newest, nothing to mark stale, and
  // ms's I would do nothing without a cas to compare (protocol.txt), which a writer has none of; a reader's late set of
  // the old version is what ms's I is for (recache()).
  private ChainBuilder invalidation() {
    if (plan.invalidate() == CacheAsidePlan.Invalidation.DELETE) {
      return exec(session -> {
        missCauses.invalidating(session.getString(DOC), System.nanoTime());
        return session;
      }).exec(plan.protect() == CacheAsidePlan.Protection.META
          ? memcache(MARK_STALE).metaDelete(session -> session.getString(CACHE_KEY)).metaFlags("I").missOk()
          : protocol.delete(memcache(DELETE), session -> session.getString(CACHE_KEY)).missOk());
    }
    // The version CouchDB stored, as its GET would give it: with its id and its new _rev.
    return exec(protocol.store(memcache(INVALIDATE_SET), session -> session.getString(CACHE_KEY), session -> document(
        session.getString(DOC), session.getString(NEW_REV), session.getLong(NEW_NUMBER)).toString())
        .exptime(plan.ttl()))
        .exec(session -> {
          if (!session.isFailed()) {
            missCauses.cached(session.getString(DOC), System.nanoTime());
          }
          return session;
        });
  }

  @Override
  public Summary<CacheAsideFigures> summary() {
    return new CacheAsideSummary();
  }

  // After the run's extensions' end (-Dbackground's tasks are shaded by then): each emptied cache's warm-up.
  @Override
  public CacheAsideFigures figures() {
    List<CacheAsideFigures.ReadSecond> seconds = readSeconds.seconds(run.loadStartMillis());
    List<CacheAsideFigures.ColdCache> coldCaches = run.shadedSpans().stream()
        .filter(BackgroundPage::emptiedTheCache)
        .map(span -> coldCache(seconds, span))
        .toList();
    return new CacheAsideFigures(describe(), plan.invalidate().word(), plan.protect().word(), hits.sum(),
        misses.sum(), waited.sum(), servedDuringRecache.sum(), updates.sum(), conflicts.sum(), staleReads.count(),
        staleReads.flagged(), staleReads.flaggedAndStale(), refills.counts(), seconds, coldCaches, cacheMemoryAfter(),
        missCauses.counts(changeSince("get_expired", getExpiredBefore), changeSince("get_flushed", getFlushedBefore)));
  }

  // Each figure in a column of its own, none a sum of kinds (issue 59), from the seconds results.json's figures.seconds
  // holds, so that the file and the page agree: the hit ratio of each second with a read; CouchDB's reads and the
  // stale reads, counts, in every second (0 in one without); the stale reads on purpose only where there can be any.
  @Override
  public List<LoadColumn> secondsColumns() {
    List<CacheAsideFigures.ReadSecond> seconds = readSeconds.seconds(run.loadStartMillis());
    Map<Long, Double> hitRatio = new HashMap<>();
    seconds.stream().filter(second -> second.reads() > 0)
        .forEach(second -> hitRatio.put(second.second(), second.hitRatio()));
    List<LoadColumn> columns = new ArrayList<>(List.of(new LoadColumn(HIT_RATIO_COLUMN, hitRatio),
        count(COUCH_READS_COLUMN, seconds, CacheAsideFigures.ReadSecond::couchReads)));
    if (plan.protect() == CacheAsidePlan.Protection.META) {
      columns.add(count(STALE_ON_PURPOSE_COLUMN, seconds, CacheAsideFigures.ReadSecond::staleOnPurpose));
    }
    columns.add(count(STALE_BY_RACE_COLUMN, seconds, CacheAsideFigures.ReadSecond::staleByRace));
    return columns;
  }

  private static LoadColumn count(String name, List<CacheAsideFigures.ReadSecond> seconds,
      ToLongFunction<CacheAsideFigures.ReadSecond> count) {
    Map<Long, Double> bySecond = new HashMap<>();
    seconds.forEach(second -> bySecond.put(second.second(), (double) count.applyAsLong(second)));
    return new LoadColumn(name, bySecond);
  }

  // A restart of the cache starts its counters again: the evictions since then.
  private CacheAsideFigures.CacheMemory cacheMemoryAfter() {
    Long evicted = cacheMemory == null ? null : changeSince("evictions", evictionsBefore);
    if (evicted == null) {
      return null;
    }
    if (evicted > 0) {
      Console.warn(String.format(Locale.ROOT, "cache-aside: memcache evicted %,d items over the load to make room: the"
          + " hit ratio is the cache's size's too", evicted));
    }
    return new CacheAsideFigures.CacheMemory(cacheMemory.limitBytes(), cacheMemory.documentsBytes(), evicted);
  }

  // A memcached counter's rise over the load (since the last restart of the cache, for a run that restarts it); null
  // where the server reports none or it cannot be read now, said.
  private Long changeSince(String stat, OptionalLong before) {
    if (before.isEmpty()) {
      return null;
    }
    try {
      long now = MemcacheResources.countIfReported(memcached, stat).orElse(0);
      return now >= before.getAsLong() ? now - before.getAsLong() : now;
    } catch (TargetException e) {
      Console.say("cache-aside: memcache's " + stat + " not read after the load: " + e.getMessage());
      return null;
    }
  }

  private CacheAsideFigures.ColdCache coldCache(List<CacheAsideFigures.ReadSecond> seconds, RunOutput.Span span) {
    long second0 = Math.floorDiv(run.loadStartMillis(), 1000);
    long emptied = Math.floorDiv(span.fromMillis(), 1000) - second0;
    double before = WarmUp.before(seconds, emptied);
    OptionalLong warmUp = before < 0 ? OptionalLong.empty() : WarmUp.seconds(seconds, emptied, before);
    long warmEnd = warmUp.isPresent() ? emptied + warmUp.getAsLong() : Long.MAX_VALUE;
    long answered = Math.floorDiv(span.toMillis(), 1000) - second0;
    return new CacheAsideFigures.ColdCache(span.label(), span.fromMillis() / 1000.0 - second0,
        span.toMillis() / 1000.0 - second0, before, warmUp.isPresent() ? warmUp.getAsLong() : null,
        WarmUp.couchReadsPerSecond(seconds, emptied - WarmUp.BEFORE, emptied),
        WarmUp.couchReadsPerSecond(seconds, emptied, warmEnd),
        seconds.stream().filter(second -> second.second() >= emptied && second.second() <= answered + 1)
            .mapToLong(CacheAsideFigures.ReadSecond::cacheDown).sum());
  }

  /** @return the document id of a key number, e.g. key000042 */
  static String id(long keyNumber) {
    return String.format("key%06d", keyNumber);
  }

  // A document's version: its text is drawn from its id and version number, so that each version's differs.
  private ObjectNode document(String id, String rev, long version) {
    ObjectNode doc = JSON.createObjectNode().put("_id", id);
    if (rev != null) {
      doc.put("_rev", rev);
    }
    return doc.put("version", version).put("text", RandomText.forKey(id + ":" + version, plan.valueSize()));
  }

  private static JsonNode json(byte[] body) {
    try {
      return JSON.readTree(body);
    } catch (IOException notJson) {
      return JSON.createObjectNode();
    }
  }
}
