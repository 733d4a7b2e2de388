package couchbench.memcache;

import static couchbench.memcache.MemcacheDsl.casUnique;
import static couchbench.memcache.MemcacheDsl.memcache;
import static couchbench.memcache.MemcacheDsl.memcacheStatus;
import static couchbench.memcache.MemcacheDsl.stat;
import static couchbench.memcache.MemcacheDsl.memcacheValues;
import static couchbench.memcache.MemcacheDsl.valueCount;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyBytes;
import static io.gatling.javaapi.core.CoreDsl.bodyLength;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.regex;
import static io.gatling.javaapi.core.CoreDsl.repeat;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.core.CoreDsl.tryMax;

import couchbench.memcache.client.ProtocolErrors;
import couchbench.memcache.client.ServerAddress;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Calls every memcache DSL method once, against the server of -Dmemcache.servers: compiled, it
 * guards the DSL against Gatling API drift; run by MemcacheDslIT, it checks what each does. Request
 * names ending in "(KO)" are expected to fail; every other request is expected to pass.
 */
public class MemcacheDslSimulation extends Simulation {

  private static final String SERVER = System.getProperty("memcache.servers");
  private static final int PIPELINED_USERS = 8;
  private static final int PIPELINED_ROUNDS = 20;
  private static final AtomicLong TIMED = new AtomicLong();
  private static final ProtocolErrors CONNECTIONS = new ProtocolErrors();
  private static final int BATCH = 8;
  private static final int BATCHES = 5;

  private final ChainBuilder storage =
      exec(
          memcache("set").set("k-#{id}", "v1").flags(5).exptime(0),
          memcache("get").get("k-#{id}").check(bodyString().is("v1"), valueCount().is(1)),
          memcache("add existing").add("k-#{id}", "x").check(memcacheStatus().is("NOT_STORED")),
          memcache("add new").add("a-#{id}", "x"),
          memcache("replace").replace("k-#{id}", "v2"),
          memcache("append").append("k-#{id}", "-a"),
          memcache("prepend").prepend("k-#{id}", "p-"),
          memcache("get after append").get(session -> "k-" + session.userId())
              .check(bodyString().is("p-v2-a"), substring("v2"), regex("p-(v\\d)").saveAs("v"),
                  bodyBytes().is("p-v2-a".getBytes(StandardCharsets.UTF_8)), bodyLength().is(6)),
          memcache("set function").set(session -> "f-" + session.userId(), session -> session.getString("v")),
          memcache("gets").gets("k-#{id}").check(casUnique().saveAs("cas")),
          memcache("cas").cas("k-#{id}", "v3", "#{cas}"),
          memcache("cas stale").cas("k-#{id}", "v4", "#{cas}").check(memcacheStatus().is("EXISTS")));

  private final ChainBuilder others =
      exec(
          memcache("set counter").set("c-#{id}", "10"),
          memcache("incr").incr("c-#{id}", 5).check(bodyString().is("15")),
          memcache("decr").decr("c-#{id}", 3).check(bodyString().is("12")),
          memcache("touch").touch("k-#{id}", 100),
          memcache("multi-get").get("k-#{id}", "c-#{id}", "a-#{id}").check(valueCount().is(3)),
          memcache("multi-get function").getMulti(
                  session -> List.of("k-" + session.userId(), "c-" + session.userId()))
              .check(valueCount().is(2), memcacheValues().is(session -> Map.of(
                  "k-" + session.userId(), "v3", "c-" + session.userId(), "12"))),
          memcache("get missing (KO)").get("missing-#{id}"),
          memcache("get missing, missOk").get("missing-#{id}").missOk(),
          memcache("delete").delete("k-#{id}"),
          memcache("delete again, missOk").delete("k-#{id}").missOk(),
          memcache("set noreply").set("n-#{id}", "quiet").noreply(),
          memcache("get after noreply").get("n-#{id}").check(bodyString().is("quiet")),
          memcache("delete noreply").delete("n-#{id}").noreply(),
          memcache("stats").stats().check(stat("cmd_set").exists()),
          memcache("invalid key (KO)").get("bad key"),
          memcache(session -> "named by function").get("c-#{id}"),
          memcache("function forms").add(session -> "fa-" + session.userId(), session -> "1"),
          memcache("replace function").replace(session -> "fa-" + session.userId(), session -> "2"),
          memcache("append function").append(session -> "fa-" + session.userId(), session -> "3"),
          memcache("prepend function").prepend(session -> "fa-" + session.userId(), session -> "1"),
          memcache("incr function").incr(session -> "fa-" + session.userId(), session -> 1L)
              .check(bodyString().is("124")),
          memcache("decr function").decr(session -> "fa-" + session.userId(), session -> 4L)
              .check(bodyString().is("120")),
          memcache("touch function").touch(session -> "fa-" + session.userId(), session -> 60L),
          memcache("gets function").gets(session -> "fa-" + session.userId()).check(casUnique().saveAs("cas2")),
          memcache("cas function").cas(session -> "fa-" + session.userId(), session -> "done",
              session -> session.getLong("cas2")),
          memcache("delete function").delete(session -> "fa-" + session.userId()));

  private final ScenarioBuilder perUser =
      scenario("memcache DSL").exec(session -> session.set("id", session.userId())).exec(storage, others)
          .exec(tryMax(2).on(exec(memcache("tryMax (KO)").get("never-#{id}"))))
          .exitHereIfFailed()
          .exec(memcache("after exitHereIfFailed (never sent)").get("c-#{id}"));

  private final ScenarioBuilder sharedPool =
      scenario("memcache shared pool").exec(session -> session.set("id", session.userId())).exec(
          memcache("pooled set").set("p-#{id}", "pooled"),
          memcache("pooled get").get("p-#{id}").check(bodyString().is("pooled")));

  // Four users on each connection, so up to four requests in flight on it; every time also goes to TIMED, every
  // connection to CONNECTIONS.
  private final ScenarioBuilder pipelined =
      scenario("memcache pipelined").exec(session -> session.set("id", session.userId())).exec(
          repeat(PIPELINED_ROUNDS).on(
              exec(memcache("pipelined set").set("q-#{id}", "v-#{id}"),
                  memcache("pipelined get").get("q-#{id}").check(bodyString().is(session -> "v-" + session.userId())))));

  // One user sends 8 sets at once, 5 times, each under a key of its own, then reads them back 8 at once in the
  // same order: each get's check sees its own request's key, so a reply matched to the wrong request fails it.
  private static final AtomicLong SET_KEYS = new AtomicLong();
  private static final AtomicLong GET_KEYS = new AtomicLong();
  private final ScenarioBuilder pipelinedAction =
      scenario("memcache pipelined action").exec(
          repeat(BATCHES).on(exec(memcache("batched set").set("#{bk}", "bv-#{bk}")
              .pipelined(BATCH, session -> session.set("bk", "b-" + SET_KEYS.incrementAndGet())))),
          repeat(BATCHES).on(exec(memcache("batched get").get("#{bk}").check(bodyString().is(session -> "bv-" + session.getString("bk")))
              .pipelined(BATCH, session -> session.set("bk", "b-" + GET_KEYS.incrementAndGet())))),
          // Named by each request's own session: the one bad key fails alone, its neighbours pass.
          exec(memcache(session -> session.getString("bk").equals("bad key") ? "bad key in a batch (KO)"
                  : "batched get beside a bad key").get("#{bk}")
              .pipelined(BATCH, session -> session.set("bk", GET_KEYS.incrementAndGet() % BATCH == 0 ? "bad key" : "b-1"))),
          // At a depth of 1: built from the session as `each` turns it, and what its checks save is kept.
          exec(memcache("pipelined at depth 1").get("#{bk}").check(bodyString().is("bv-b-2").saveAs("depth1"))
              .pipelined(1, session -> session.set("bk", "b-2"))),
          exec(memcache("after depth 1").get("b-2").check(bodyString().isEL("#{depth1}"))));

  @Override
  public void after() {
    System.out.println("memcache DSL: timings of " + TIMED.get() + " requests recorded");
    ProtocolErrors.ServerTally tally = CONNECTIONS.byServer().get(SERVER);
    System.out.println("memcache DSL: pipelined users' connections: " + tally.opened() + " opened, "
        + tally.dropped().values().stream().mapToLong(Long::longValue).sum() + " dropped");
  }

  {
    setUp(
        perUser.injectOpen(atOnceUsers(2)),
        pipelined.injectOpen(atOnceUsers(PIPELINED_USERS))
            .protocols(memcache.addresses(List.of(ServerAddress.parse(SERVER))).usersPerConnection(4)
                .timings((name, ok, nanos) -> TIMED.incrementAndGet()).connectionTally(CONNECTIONS)),
        pipelinedAction.injectOpen(atOnceUsers(1)),
        sharedPool.injectOpen(atOnceUsers(4))
            .protocols(memcache.servers(SERVER).sharedPool(2).timeouts(Duration.ofSeconds(2), Duration.ofSeconds(2))
                .maxValueBytes(1 << 20)))
        .protocols(memcache.servers(List.of(SERVER)));
  }
}
