package couchbench.memcache;

import static couchbench.memcache.MemcacheDsl.casUnique;
import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static couchbench.memcache.MemcacheDsl.metaFlag;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls every meta-protocol DSL method once, one user, against the memcached of -Dmemcache.servers: MetaDslIT checks
 * what each does and that memcached counted what Gatling did. Request names ending in "(KO)" are expected to fail.
 */
public class MetaDslSimulation extends Simulation {

  private static final String SERVER = System.getProperty("memcache.servers");
  /** Quiet batches: BATCHES of BATCH requests, each under a key of its own. */
  static final int BATCH = 8;
  static final int BATCHES = 3;
  private static final AtomicLong SET_KEYS = new AtomicLong();
  private static final AtomicLong GET_KEYS = new AtomicLong();
  private static final AtomicLong REPLACE_KEYS = new AtomicLong();
  /** How mg's k flag returns a key stored base64-encoded: base64-encoded, with b. */
  private static final String BASE64_KEY =
      Base64.getEncoder().encodeToString("a key\r\nwith line ends".getBytes(StandardCharsets.UTF_8));

  private final ChainBuilder values =
      exec(
          memcache("ms").metaSet("m", "v1").flags(5).exptime(0),
          memcache("mg all flags").metaGet("m").metaFlags("v", "c", "f", "t", "s", "k", "l", "h")
              .check(bodyString().is("v1"), memcacheStatus().is("VA"), metaFlag('f').is("5"), metaFlag('t').is("-1"),
                  metaFlag('s').is("2"), metaFlag('k').is("m"), metaFlag('h').is("0"), metaFlag('l').exists(),
                  casUnique().saveAs("cas")),
          memcache("ms compareCas").metaSet("m", "v2").compareCas("#{cas}").metaFlags("c")
              .check(metaFlag('c').exists()),
          memcache("ms stale cas").metaSet("m", "v3").compareCas("#{cas}").check(memcacheStatus().is("EX")),
          memcache("ms append").metaSet("m", "-a").metaFlags("MA"),
          memcache("ms function").metaSet(session -> "f", session -> "fv"),
          memcache("mg function").metaGet(session -> "m").metaFlags("v", "h")
              .check(bodyString().is("v2-a"), metaFlag('h').exists()),
          memcache("mg hit, no value").metaGet("f").check(memcacheStatus().is("HD")),
          memcache("mg miss (KO)").metaGet("missing"),
          memcache("mg miss, missOk").metaGet("missing").missOk().check(memcacheStatus().is("EN")),
          memcache("ms base64 key").metaSet("a key\r\nwith line ends", "b64").base64Key(),
          memcache("mg base64 key").metaGet("a key\r\nwith line ends").base64Key().metaFlags("v", "k")
              .check(bodyString().is("b64"), metaFlag('b').is(""), metaFlag('k').is(BASE64_KEY)),
          memcache("mg base64 key too long (KO)").metaGet("x".repeat(187)).base64Key(),
          memcache("mg invalid key (KO)").metaGet("bad key"));

  private final ChainBuilder counters =
      exec(
          memcache("ms counter").metaSet("c", "10"),
          memcache("ma").metaArithmetic("c", 5).metaFlags("v").check(bodyString().is("15")),
          memcache("ma function").metaArithmetic(session -> "c", session -> 3L).metaFlags("MD", "v", "c")
              .check(bodyString().is("12"), casUnique().saveAs("cas2")),
          memcache("ma compareCas").metaArithmetic("c", 1).compareCas(session -> session.getLong("cas2")),
          memcache("ma miss (KO)").metaArithmetic("no-counter", 1),
          memcache("md compareCas stale").metaDelete("c").compareCas("#{cas2}").check(memcacheStatus().is("EX")),
          memcache("md").metaDelete("c"),
          memcache("md miss, missOk").metaDelete(session -> "c").missOk(),
          memcache("me").metaDebug("f").check(memcacheStatus().is("ME"), bodyString().is("ME")),
          memcache("me function, missOk").metaDebug(session -> "gone").missOk(),
          memcache("mn").metaNoop().check(memcacheStatus().is("MN")));

  // Quiet batches: sets that all succeed (no reply but the MN), gets that all hit (a VA each), gets that all miss (no
  // reply), and replaces of which every other key is missing (an NS each for those, nothing for the others).
  private final ChainBuilder quiet =
      exec(
          repeat(BATCHES).on(exec(memcache("quiet ms").metaSet("#{qk}", "qv-#{qk}").quiet()
              .pipelined(BATCH, session -> session.set("qk", "q-" + SET_KEYS.incrementAndGet())))),
          repeat(BATCHES).on(exec(memcache("quiet mg hit").metaGet("#{qk}").metaFlags("v").quiet()
              .check(bodyString().is(session -> "qv-" + session.getString("qk")))
              .pipelined(BATCH, session -> session.set("qk", "q-" + GET_KEYS.incrementAndGet())))),
          repeat(BATCHES).on(exec(memcache("quiet mg miss").metaGet("#{qk}").metaFlags("v").quiet().missOk()
              .check(memcacheStatus().is("EN"))
              .pipelined(BATCH, session -> session.set("qk", "none-" + GET_KEYS.incrementAndGet())))),
          exec(memcache(session -> session.getString("qk").startsWith("none") ? "quiet replace missing (KO)"
                  : "quiet replace").metaSet("#{qk}", "r").metaFlags("MR").quiet()
              .pipelined(BATCH, session -> {
                long n = REPLACE_KEYS.incrementAndGet();
                return session.set("qk", (n % 2 == 0 ? "none-" : "q-") + n);
              })));

  private final ScenarioBuilder meta = scenario("memcache meta DSL").exec(values, counters, quiet);

  {
    setUp(meta.injectOpen(atOnceUsers(1))).protocols(memcache.servers(SERVER));
  }
}
