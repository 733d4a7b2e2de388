package couchbench.siege;

import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static couchbench.memcache.MemcacheDsl.memcacheValues;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.group;

import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.data.Md5Keys;
import couchbench.data.RandomText;
import couchbench.memcache.MemcacheActionBuilder;
import couchbench.memcache.codec.MemcacheKeys;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Seed 000's memset.php and memget.php as Gatling chains, and records of F fields stored as F
 * keys {@code <record>:<i>}, read back by F gets or by one multi-key get. A chain of one round of -Drounds names its
 * requests and groups for that round ({@link couchbench.rounds.Rounds#name}), once, when it is built.
 */
public final class MemcacheWorkloads {

  /** Request names in the report: system and operation. */
  public static final String SET = "memcache set";

  /** Request names in the report: system and operation. */
  public static final String GET = "memcache get";

  /** The one key MemSet's warm-up writes, over and over. */
  public static final String WARMUP_KEY = "couchbench:warm-up";

  /** The group timing a whole record's write: F sets, one after the other. */
  public static final String RECORD_WRITE = "memcache record write";

  /** The group timing a whole record's read by F gets, one after the other. */
  public static final String RECORD_READ = "memcache record read";

  /** The group timing a whole record's read by one get of F keys. */
  public static final String RECORD_MULTI_READ = "memcache record multi-get read";

  private MemcacheWorkloads() {}

  /**
   * memset.php: one set of random text under a new md5 key; a reply other than STORED fails it. Every key the
   * server answered STORED goes into the key file, and only those.
   *
   * @param plan value size, this injector's key space, and the rounds
   * @param keys where acknowledged keys are recorded
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one set
   */
  public static ChainBuilder set(SiegePlan plan, KeyFile keys, int round) {
    return storeRandomText(plan, plan.rounds().name(SET, round), () -> plan.newKey(Md5Keys.random()), keys::record, 1);
  }

  /**
   * MemSet's sets: as {@link #set}, the pipeline depth of them at once (-Dpipeline), each under its own key, as a
   * pipelining client sends them.
   *
   * @param plan value size, this injector's key space, the rounds and the pipeline depth
   * @param keys where acknowledged keys are recorded
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: the depth's sets
   */
  public static ChainBuilder setsAtOnce(SiegePlan plan, KeyFile keys, int round) {
    return storeRandomText(plan, plan.rounds().name(SET, round), () -> plan.newKey(Md5Keys.random()), keys::record,
        plan.pipeline());
  }

  /**
   * MemSet's warm-up: the same request path, under the name {@code "warm-up memcache set"}, always
   * to the one key {@link #WARMUP_KEY}, so that it leaves one item behind, in no key file.
   *
   * @param plan value size, and the pipeline depth
   * @return one iteration: the depth's sets
   */
  public static ChainBuilder warmUpSets(SiegePlan plan) {
    return storeRandomText(plan, SiegePlan.WARMUP + SET, () -> WARMUP_KEY, key -> {}, plan.pipeline());
  }

  private static ChainBuilder storeRandomText(SiegePlan plan, String name, Supplier<String> key,
      Consumer<String> stored, int atOnce) {
    Function<Session, Session> keyAndValue = session -> session.set(KeyFile.HEADER, key.get())
        .set("value", RandomText.ofLength(plan.valueSize()));
    MemcacheActionBuilder store = memcache(name).set("#{key}", "#{value}").check(stored(stored));
    return atOnce == 1 ? exec(keyAndValue).exec(store) : exec(store.pipelined(atOnce, keyAndValue));
  }

  // STORED, else the set fails; a STORED key goes to `stored` from the check itself: an exec after the request
  // cost 1.5-2 us of event-loop CPU per set, 5-15% of MemSet's sets/s (bench/memcache-cpu-by-thread.sh, 3 rounds).
  private static CheckBuilder stored(Consumer<String> stored) {
    return memcacheStatus()
        .transformWithSession((word, session) -> {
          if ("STORED".equals(word)) {
            stored.accept(session.getString(KeyFile.HEADER));
          }
          return word;
        })
        .is("STORED");
  }

  /**
   * A record of F fields written as F sets of {@code <md5 key>:<i>}, each value {@code valueSize}
   * long, timed as the group {@link #RECORD_WRITE}; a record whose F sets were all STORED goes into
   * the key file. After the group, the record is forgotten, whole or not.
   *
   * @param plan value size (per field), this injector's key space, and the rounds
   * @param fields F, and where STORED fields are counted
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one record
   */
  public static ChainBuilder recordWrite(SiegePlan plan, StoredFields fields, int round) {
    String fieldSet = plan.rounds().name("memcache field set", round);
    return exec(session -> session.set(KeyFile.HEADER, plan.newKey(Md5Keys.random())))
        .group(plan.rounds().name(RECORD_WRITE, round)).on(exec(IntStream.range(0, fields.fields()).mapToObj(i -> exec(
                memcache(fieldSet)
                    .set(session -> fieldKey(session, i),
                        session -> RandomText.forKey(fieldKey(session, i), plan.valueSize()))
                    .check(stored(fields::stored))))
            .toList()))
        .exec(session -> {
          fields.ended(session.getString(KeyFile.HEADER));
          return session;
        });
  }

  /**
   * memget.php: a get of the key under {@link KeyFile#HEADER} in the session (drawn by {@link KeyFile#randomKey});
   * a miss is a failure (NOT_FOUND), since every key in the file was acknowledged.
   *
   * @param plan the rounds
   * @param round the round the chain runs in, 1 to R
   * @return one iteration's request
   */
  public static ChainBuilder get(SiegePlan plan, int round) {
    return exec(memcache(plan.rounds().name(GET, round)).get("#{key}"));
  }

  /**
   * MemGet's gets: the pipeline depth of them at once (-Dpipeline), each of a key drawn at random from the key file
   * (one get after its own draw without a pipeline); a miss is a failure.
   *
   * @param plan the rounds and the pipeline depth
   * @param keys the key file's keys
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: the depth's gets
   */
  public static ChainBuilder getsAtOnce(SiegePlan plan, Supplier<List<String>> keys, int round) {
    return getsOfRandomKeys(plan, plan.rounds().name(GET, round), keys);
  }

  /**
   * MemGet's warm-up: the same gets, under the name {@code "warm-up memcache get"}.
   *
   * @param plan the pipeline depth
   * @param keys the key file's keys
   * @return one iteration: the depth's gets
   */
  public static ChainBuilder warmUpGets(SiegePlan plan, Supplier<List<String>> keys) {
    return getsOfRandomKeys(plan, SiegePlan.WARMUP + GET, keys);
  }

  private static ChainBuilder getsOfRandomKeys(SiegePlan plan, String name, Supplier<List<String>> keys) {
    Function<Session, Session> draw = KeyFile.randomKey(keys);
    MemcacheActionBuilder get = memcache(name).get("#{key}");
    return plan.pipeline() == 1 ? exec(draw).exec(get) : exec(get.pipelined(plan.pipeline(), draw));
  }

  /**
   * The memcache half of CouchVsMemcache's warm-up: a set and a get of the key under {@link KeyFile#HEADER}, under
   * names of their own.
   *
   * @return the requests
   */
  public static ChainBuilder warmUpSetAndGet() {
    return exec(memcache(SiegePlan.WARMUP + SET).set("#{key}", "warm"),
        memcache(SiegePlan.WARMUP + GET).get("#{key}", "#{key}"));
  }

  /**
   * A record read back by F gets of the record key under {@link KeyFile#HEADER}, one after the other, timed as the
   * group {@link #RECORD_READ}; each must find the text stored under its key.
   *
   * @param plan value size, and the rounds
   * @param fields F
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one record
   */
  public static ChainBuilder recordRead(SiegePlan plan, int fields, int round) {
    String fieldGet = plan.rounds().name("memcache field get", round);
    return group(plan.rounds().name(RECORD_READ, round)).on(exec(IntStream.range(0, fields).mapToObj(i -> exec(
            memcache(fieldGet)
                .get(session -> fieldKey(session, i))
                .check(bodyString().is(session -> RandomText.forKey(fieldKey(session, i), plan.valueSize())))))
        .toList()));
  }

  /**
   * A record read back by one get of its F keys, timed as the group {@link #RECORD_MULTI_READ};
   * all F values must be found, each holding the text stored under its key.
   *
   * @param plan value size, and the rounds
   * @param fields F
   * @param round the round the chain runs in, 1 to R
   * @return one iteration: one record
   */
  public static ChainBuilder recordMultiRead(SiegePlan plan, int fields, int round) {
    return group(plan.rounds().name(RECORD_MULTI_READ, round)).on(
        exec(memcache(plan.rounds().name("memcache record multi-get", round))
            .getMulti(session -> IntStream.range(0, fields).mapToObj(i -> fieldKey(session, i)).toList())
            .check(memcacheValues()
                .transformWithSession((values, session) -> recordVerdict(values, session.getString(KeyFile.HEADER),
                    fields, plan.valueSize()))
                .is(RecordFields.INTACT)
                .name("record values")
                // The verdict is a few words, not the body: the report shows what was wrong.
                .logActualValueInError(true))));
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

  /** Whether a multi-get found all F fields of a record intact: "intact", or what is wrong. */
  static String recordVerdict(Map<String, String> values, String record, int fields, int valueSize) {
    for (int i = 0; i < fields; i++) {
      String key = RecordFields.key(record, i);
      String value = values.get(key);
      if (value == null) {
        return "field " + i + " not found";
      }
      if (!value.equals(RandomText.forKey(key, valueSize))) {
        return "field " + i + ": text differs from what was stored";
      }
    }
    return values.size() == fields ? RecordFields.INTACT : values.size() + " values for " + fields + " keys";
  }

  private static String fieldKey(Session session, int field) {
    return RecordFields.key(session.getString(KeyFile.HEADER), field);
  }
}
