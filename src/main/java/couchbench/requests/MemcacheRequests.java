package couchbench.requests;

import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static couchbench.memcache.MemcacheDsl.memcacheValues;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;

import couchbench.data.Expiry;
import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.data.RandomText;
import couchbench.data.ValueSizes;
import couchbench.memcache.Memcache;
import couchbench.memcache.MemcacheActionBuilder;
import couchbench.memcache.codec.MemcacheKeys;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * The memcache requests of the simulations as named Gatling chains: seed 000's memset.php and memget.php, and records
 * of F fields stored as F keys {@code <record>:<i>}, read back by F gets or by one multi-key get. Every read checks
 * what it read against what was written. A chain takes {@code names}, how its step names what it measures
 * ({@link couchbench.rounds.Rounds#names} for a round, or the warm-up's prefix), applied once, when it is built.
 */
public final class MemcacheRequests {

  /** Request names in the report: system and operation. */
  public static final String SET = "memcache set";

  /** Request names in the report: system and operation. */
  public static final String GET = "memcache get";

  /** A get of a key past its expiry time (-Dexpiry): it must find nothing, and it is no failure. */
  public static final String GET_EXPIRED = "memcache get expired";

  /** A get of a key within a second or two of its expiry time, where no unsettled key could be drawn: either way. */
  public static final String GET_NEAR_EXPIRY = "memcache get near expiry";

  /** @return every name a get has, for a summary: its own, then an expired key's, then a key's near its expiry */
  public static String[] getNames() {
    return new String[] {GET, GET_EXPIRED, GET_NEAR_EXPIRY};
  }

  // A key is drawn again while it is near its expiry time, at most this often: its outcome is not known there.
  private static final int DRAWS = 100;
  private static final String KEY_STATE = "couchbench.keyState";
  private static final String AS_EXPECTED = "as its expiry time says";

  /** The group timing a whole record's write: F sets, one after the other. */
  public static final String RECORD_WRITE = "memcache record write";

  /** The group timing a whole record's read by F gets, one after the other. */
  public static final String RECORD_READ = "memcache record read";

  /** The group timing a whole record's read by one get of F keys. */
  public static final String RECORD_MULTI_READ = "memcache record multi-get read";

  /** The one key a warm-up writes, over and over, so that it leaves one item behind, in no key file. */
  public static final String WARMUP_KEY = "couchbench:warm-up";

  private final ValueSizes valueSizes;
  private final MemcacheDialect dialect;
  private final Expiry expiry;
  private final boolean keysExpire;
  // What the near-expiry gets found and missed, which the server counts as hits and misses: see nearExpiry().
  private final LongAdder nearExpiryHits = new LongAdder();
  private final LongAdder nearExpiryMisses = new LongAdder();

  /**
   * @param valueSizes bytes of random text per value, or per field of a record, by key
   * @param dialect the protocol of the sets and gets: the text protocol's set and get, or the meta protocol's ms (with
   *     F0 T0, as set's line has them) and mg with v; the multi-get of a record stays a text get, which meta has none of
   */
  public MemcacheRequests(ValueSizes valueSizes, MemcacheDialect dialect) {
    this(valueSizes, dialect, Expiry.NONE, false);
  }

  private MemcacheRequests(ValueSizes valueSizes, MemcacheDialect dialect, Expiry expiry, boolean keysExpire) {
    this.valueSizes = valueSizes;
    this.dialect = dialect;
    this.expiry = expiry;
    this.keysExpire = keysExpire;
  }

  /**
   * @param life how long each set's value lives (-Dexpiry)
   * @return these requests, each set's key carrying its expiry time ({@link Expiry#stamp}) and its value that exptime
   */
  public MemcacheRequests expiring(Expiry life) {
    return new MemcacheRequests(valueSizes, dialect, life, keysExpire);
  }

  /**
   * @param keys the keys the gets draw from
   * @return these requests, each get judged by its key's expiry time when the keys carry one: a key past it must be
   *     gone ({@link #GET_EXPIRED}), one near it is drawn again
   */
  public MemcacheRequests reading(KeyFile.Keys keys) {
    boolean expire = keys.keys().stream().anyMatch(key -> Expiry.expiresAt(key).isPresent());
    return new MemcacheRequests(valueSizes, dialect, expiry, expire);
  }

  /** @return whether the keys read carry their expiry time, so that gets are named and judged by it */
  public boolean readsExpiringKeys() {
    return keysExpire;
  }

  /**
   * The gets named {@link #GET_NEAR_EXPIRY} so far, by outcome: the server counts the found ones among its hits and
   * the others among its misses, so a check of its counters against {@link #GET} and {@link #GET_EXPIRED} takes
   * these off first.
   *
   * @param found true for the gets that found their value, false for those that did not
   * @return how many, so far
   */
  public long nearExpiry(boolean found) {
    return (found ? nearExpiryHits : nearExpiryMisses).sum();
  }

  /**
   * memset.php: a set of random text under a new key; a reply other than STORED fails it. Every key the server
   * answered STORED goes to {@code stored}, and only those. With {@code atOnce} above 1, that many sets at once, each
   * under its own key, as a pipelining client sends them (-Dpipeline); in the meta protocol, quiet: the batch's mn
   * answers for the sets that were stored (HD).
   *
   * @param names how the step names {@link #SET}
   * @param newKey a new key for each set
   * @param stored where acknowledged keys go, e.g. a key file's {@code record}
   * @param atOnce sets sent at once by one user, 1 to 1024
   * @return one iteration: the sets
   */
  public ChainBuilder set(UnaryOperator<String> names, Supplier<String> newKey, Consumer<String> stored,
      int atOnce) {
    // The key stays in the session for the check; the value is drawn as the request is built: a session copy less.
    Function<Session, Session> key = session -> session.set(KeyFile.HEADER,
        expiry.stamp(newKey.get(), System.currentTimeMillis()));
    MemcacheActionBuilder store = store(memcache(names.apply(SET)), session -> session.getString(KeyFile.HEADER),
        session -> RandomText.ofLength(valueSizes.forKey(session.getString(KeyFile.HEADER)))).check(stored(stored));
    if (expiry.expires()) {
      store = store.exptime(session -> Expiry.exptimeOf(session.getString(KeyFile.HEADER)));
    }
    return exec(atOnce(store, atOnce, key));
  }

  /**
   * A warm-up's sets: {@link #WARMUP_KEY} over and over, without expiry (one item left behind, however long the
   * warm-up), in no key file.
   *
   * @param names how the warm-up names {@link #SET}
   * @param atOnce sets sent at once by one user, as {@link #set}'s
   * @return one iteration: the sets
   */
  public ChainBuilder warmUpSet(UnaryOperator<String> names, int atOnce) {
    return new MemcacheRequests(valueSizes, dialect).set(names, () -> WARMUP_KEY, key -> {}, atOnce);
  }

  /**
   * memget.php: a get of the key that {@code draw} puts under {@link KeyFile#HEADER}; a miss is a failure (NOT_FOUND),
   * since every key drawn was acknowledged (meta: EN). With {@code atOnce} above 1, that many gets at once, each of its
   * own draw; in the meta protocol, quiet: a miss is the one reply left out.
   *
   * @param names how the step names {@link #GET}
   * @param draw puts the key to read in the session, e.g. {@link KeyFile#randomKey}
   * @param atOnce gets sent at once by one user, 1 to 1024
   * @return one iteration: the gets
   */
  public ChainBuilder get(UnaryOperator<String> names, Function<Session, Session> draw, int atOnce) {
    if (keysExpire) {
      return getByExpiry(names, draw, atOnce);
    }
    MemcacheActionBuilder get = read(memcache(names.apply(GET)), "#{key}");
    return exec(atOnce(get, atOnce, draw));
  }

  // Keys that carry their expiry time: each get named and judged by its key's state when drawn, a key near its expiry
  // drawn again. Never quiet: a miss is an outcome to see here, not the reply a quiet mg leaves out.
  private ChainBuilder getByExpiry(UnaryOperator<String> names, Function<Session, Session> draw, int atOnce) {
    Map<Expiry.State, String> named = Map.of(Expiry.State.LIVE, names.apply(GET), Expiry.State.EXPIRED,
        names.apply(GET_EXPIRED), Expiry.State.UNSETTLED, names.apply(GET_NEAR_EXPIRY));
    MemcacheActionBuilder get = read(memcache(session -> named.get(keyState(session))), "#{key}")
        .check(asItsExpirySays());
    return exec(get.pipelined(atOnce, session -> settledDraw(draw, session)));
  }

  private static Session settledDraw(Function<Session, Session> draw, Session session) {
    Session drawn = session;
    Expiry.State state = Expiry.State.UNSETTLED;
    for (int i = 0; i < DRAWS && state == Expiry.State.UNSETTLED; i++) {
      drawn = draw.apply(session);
      state = Expiry.stateOf(drawn.getString(KeyFile.HEADER), System.currentTimeMillis());
    }
    return drawn.set(KEY_STATE, state);
  }

  private static Expiry.State keyState(Session session) {
    return (Expiry.State) session.get(KEY_STATE);
  }

  // A live key's value is found, an expired key's is not; near its expiry time, either, tallied by outcome.
  private CheckBuilder asItsExpirySays() {
    String found = dialect.found();
    String missing = dialect.missing();
    return memcacheStatus()
        .transformWithSession((word, session) -> {
          Expiry.State state = keyState(session);
          boolean hit = word.equals(found);
          if (!hit && !word.equals(missing)) {
            return word;
          }
          if (state == Expiry.State.UNSETTLED) {
            (hit ? nearExpiryHits : nearExpiryMisses).increment();
            return AS_EXPECTED;
          }
          if (hit) {
            return state == Expiry.State.EXPIRED ? word + " after its expiry time" : AS_EXPECTED;
          }
          return state == Expiry.State.LIVE ? "NOT_FOUND before its expiry time" : AS_EXPECTED;
        })
        .is(AS_EXPECTED);
  }

  /**
   * A record of F fields written as F sets of {@code <key>:<i>}, each value as long as {@code valueSizes} gives its key, timed as the group
   * {@link #RECORD_WRITE}; a record whose F sets were all STORED is acknowledged ({@link StoredFields}). After the
   * group, the record is forgotten, whole or not.
   *
   * @param names how the step names its group and its field sets
   * @param newKey a new record key for each record
   * @param fields F, and where STORED fields are counted
   * @return one iteration: one record
   */
  public ChainBuilder recordWrite(UnaryOperator<String> names, Supplier<String> newKey, StoredFields fields) {
    String fieldSet = names.apply("memcache field set");
    return exec(session -> session.set(KeyFile.HEADER, newKey.get()))
        .group(names.apply(RECORD_WRITE)).on(exec(IntStream.range(0, fields.fields()).mapToObj(i -> exec(
            store(memcache(fieldSet), session -> fieldKey(session, i),
                    session -> valueSizes.textFor(fieldKey(session, i)))
                .check(stored(fields::stored))))
            .toList()))
        .exec(session -> {
          fields.ended(session.getString(KeyFile.HEADER));
          return session;
        });
  }

  /**
   * A record read back by F gets, one after the other, timed as the group {@link #RECORD_READ}; each must find the
   * text stored under its key.
   *
   * @param names how the step names its group and its field gets
   * @param draw puts the record key to read in the session
   * @param fields F
   * @return one iteration: one record
   */
  public ChainBuilder recordRead(UnaryOperator<String> names, Function<Session, Session> draw, int fields) {
    String fieldGet = names.apply("memcache field get");
    return exec(draw).group(names.apply(RECORD_READ)).on(exec(IntStream.range(0, fields).mapToObj(i -> exec(
            read(memcache(fieldGet), session -> fieldKey(session, i))
                .check(bodyString().is(session -> valueSizes.textFor(fieldKey(session, i))))))
        .toList()));
  }

  /**
   * A record read back by one get of its F keys, timed as the group {@link #RECORD_MULTI_READ}; all F values must be
   * found, each holding the text stored under its key.
   *
   * @param names how the step names its group and its multi-get
   * @param draw puts the record key to read in the session
   * @param fields F
   * @return one iteration: one record
   */
  public ChainBuilder recordMultiRead(UnaryOperator<String> names, Function<Session, Session> draw, int fields) {
    return exec(draw).group(names.apply(RECORD_MULTI_READ)).on(
        exec(memcache(names.apply("memcache record multi-get"))
            .getMulti(session -> IntStream.range(0, fields).mapToObj(i -> fieldKey(session, i)).toList())
            .check(memcacheValues()
                .transformWithSession((values, session) -> recordVerdict(values, session.getString(KeyFile.HEADER),
                    fields, valueSizes))
                .is(RecordFields.INTACT)
                .name("record values")
                // The verdict is a few words, not the body: the report shows what was wrong.
                .logActualValueInError(true))));
  }

  /**
   * A warm-up's set and get of the key under {@link KeyFile#HEADER}, each checked: the get one of two keys, as a
   * record's multi-get is, and in the meta protocol an mg too.
   *
   * @param names how the warm-up names {@link #SET} and {@link #GET}
   * @return the requests
   */
  public ChainBuilder setAndGet(UnaryOperator<String> names) {
    ChainBuilder set = exec(store(memcache(names.apply(SET)), "#{key}", "warm"));
    return (dialect == MemcacheDialect.META ? set.exec(read(memcache(names.apply(GET)), "#{key}")) : set)
        .exec(memcache(names.apply(GET)).get("#{key}", "#{key}"));
  }

  /**
   * Reads and checks a memcache key file before any load is sent.
   *
   * @param keyFile the key file
   * @return its keys, all of them or a sample (see {@link KeyFile#read})
   * @throws KeyFileException when the file is unusable or holds a key memcache forbids
   */
  public static KeyFile.Keys readKeys(Path keyFile) {
    return KeyFile.read(keyFile, "MemSet", MemcacheKeys::problem);
  }

  private MemcacheActionBuilder store(Memcache request, String key, String value) {
    return dialect == MemcacheDialect.META ? request.metaSet(key, value) : request.set(key, value);
  }

  private MemcacheActionBuilder store(Memcache request, Function<Session, String> key, Function<Session, String> value) {
    return dialect.store(request, key, value);
  }

  private MemcacheActionBuilder read(Memcache request, String key) {
    return dialect == MemcacheDialect.META ? request.metaGet(key).metaFlags("v") : request.get(key);
  }

  private MemcacheActionBuilder read(Memcache request, Function<Session, String> key) {
    return dialect.read(request, key);
  }

  /**
   * Sends {@code atOnce} at a time, each of its own {@code each} (at 1, one request and its draw in one Gatling action);
   * a pipelined batch of meta requests goes quiet: one mn per batch answers for all that succeeded.
   */
  private MemcacheActionBuilder atOnce(MemcacheActionBuilder request, int atOnce, Function<Session, Session> each) {
    return (dialect == MemcacheDialect.META && atOnce > 1 ? request.quiet() : request).pipelined(atOnce, each);
  }

  // STORED (meta: HD), else the set fails; a stored key goes to `stored` from the check itself: an exec after the
  // request cost 1.5-2 us of event-loop CPU per set, 5-15% of MemSet's sets/s (bench/memcache-cpu-by-thread.sh).
  private CheckBuilder stored(Consumer<String> stored) {
    String done = dialect.stored();
    return memcacheStatus()
        .transformWithSession((word, session) -> {
          if (done.equals(word)) {
            stored.accept(session.getString(KeyFile.HEADER));
          }
          return word;
        })
        .is(done);
  }

  /** Whether a multi-get found all F fields of a record intact: "intact", or what is wrong. */
  static String recordVerdict(Map<String, String> values, String record, int fields, ValueSizes valueSizes) {
    for (int i = 0; i < fields; i++) {
      String key = RecordFields.key(record, i);
      String value = values.get(key);
      if (value == null) {
        return "field " + i + " not found";
      }
      if (!value.equals(valueSizes.textFor(key))) {
        return "field " + i + ": text differs from what was stored";
      }
    }
    return values.size() == fields ? RecordFields.INTACT : values.size() + " values for " + fields + " keys";
  }

  private static String fieldKey(Session session, int field) {
    return RecordFields.key(session.getString(KeyFile.HEADER), field);
  }
}
