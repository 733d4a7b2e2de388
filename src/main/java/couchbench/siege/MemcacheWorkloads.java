package couchbench.siege;

import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static io.gatling.javaapi.core.CoreDsl.during;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;

import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.data.Md5Keys;
import couchbench.data.RandomText;
import couchbench.memcache.codec.MemcacheKeys;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.List;

/** Seed 000's memset.php and memget.php as Gatling chains. */
public final class MemcacheWorkloads {

  /** Request names in the report: system and operation. */
  public static final String SET = "memcache set";

  /** Request names in the report: system and operation. */
  public static final String GET = "memcache get";

  private MemcacheWorkloads() {}

  /**
   * memset.php: store random text under md5(random) keys, for the plan's duration; every key the
   * server answered STORED goes into the key file, and only those.
   *
   * @param plan users, duration, value size
   * @param keys where acknowledged keys are recorded
   * @return the chain each user runs
   */
  public static ChainBuilder set(SiegePlan plan, KeyFile keys) {
    return during(plan.duration()).on(
        exec(session -> session.set(KeyFile.HEADER, Md5Keys.random())
                .set("value", RandomText.ofLength(plan.valueSize())))
            .exec(memcache(SET).set("#{key}", "#{value}").check(
                memcacheStatus()
                    .transformWithSession((word, session) -> {
                      if ("STORED".equals(word)) {
                        keys.record(session.getString(KeyFile.HEADER));
                      }
                      return word;
                    })
                    .is("STORED"))));
  }

  /**
   * memget.php: get a random key of the key file, for the plan's duration; a miss is a failure
   * (NOT_FOUND), since every key in the file was acknowledged.
   *
   * @param plan users, duration
   * @param keys the keys to read, from {@link #readKeys}
   * @return the chain each user runs
   */
  public static ChainBuilder get(SiegePlan plan, List<String> keys) {
    return during(plan.duration()).on(feed(KeyFile.randomFeeder(keys)).exec(memcache(GET).get("#{key}")));
  }

  /**
   * Reads and checks a memcache key file before any load is sent.
   *
   * @param plan where the key file is
   * @return its keys
   * @throws KeyFileException when the file is unusable or holds a key memcache forbids
   */
  public static List<String> readKeys(SiegePlan plan) {
    return KeyFile.read(plan.keyFile(), "MemSet", MemcacheKeys::problem);
  }
}
