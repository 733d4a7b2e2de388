package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.memcache.client.FakeMemcache;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * MemSet and MemGet with -Dprotocol=meta: against memcached, quiet batches of ms and mg whose counts are memcached's;
 * against a server with the text protocol only, one line and the run in text.
 */
class MetaProtocolIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void shouldSetAndGetInQuietMetaBatchesCountedAsMemcachedCountsThem() throws Exception {
    Path keyFile = KeyFiles.fresh("memcache-meta");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "protocol", "meta", "pipeline", "4", "users", "2", "duration", "2", "warmup", "1",
          "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      assertTrue(set.output().contains("memcache protocol: meta (memcached 1.6's mg and ms"), set.output());
      Map<String, GatlingReport.Counts> sets = GatlingReport.requests(set.requireRunFolder());
      long acknowledged = sets.get("memcache set").ok() + sets.get("warm-up memcache set").ok();
      Map<String, String> afterSet = MemcachedStats.of(memcached.port());
      assertEquals(acknowledged, Long.parseLong(afterSet.get("cmd_set")), "every quiet ms, counted by memcached");
      List<String> keys = KeyFiles.written(keyFile);
      assertEquals(keys.size() + 1, Long.parseLong(afterSet.get("curr_items")), "the key file and the warm-up's key");
      assertTrue(Files.readString(set.requireRunFolder().resolve("results.json")).contains("\"protocol\""),
          "the protocol is among the run's parameters");

      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "protocol", "meta", "users", "2", "duration", "2", "warmup", "0", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, get.exitCode(), get.why());
      GatlingReport.Counts gets = GatlingReport.requests(get.requireRunFolder()).get("memcache get");
      Map<String, String> afterGet = MemcachedStats.of(memcached.port());
      assertEquals(gets.ok(), Long.parseLong(afterGet.get("get_hits")) - Long.parseLong(afterSet.get("get_hits")));
      assertEquals(afterSet.get("get_misses"), afterGet.get("get_misses"), "every key drawn was found");
      assertTrue(gets.ok() > 20, "gets sent: " + gets);
    }
  }

  @Test
  void shouldSayInOneLineThatATextOnlyServerHasNoMetaProtocolAndRunInText() throws Exception {
    AtomicLong stored = new AtomicLong();
    try (FakeMemcache textOnly = new FakeMemcache(line -> textOnly(line, stored))) {
      String server = "127.0.0.1:" + textOnly.address().getPort();
      GatlingRun.Result run = GatlingRun.run("MemSet", Map.of("memcache.servers", server, "protocol", "meta",
          "pipeline", "4", "users", "2", "duration", "2", "warmup", "0", "keyFile", KeyFiles.fresh("memcache-meta").toString()),
          TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("memcache server " + server
          + " answers ERROR to mn: it has no meta protocol; running the text protocol"), run.output());
      GatlingReport.Counts sets = GatlingReport.requests(run.requireRunFolder()).get("memcache set");
      assertEquals(stored.get(), sets.ok(), "every set went as a text set");
      assertTrue(sets.ok() > 20, "sets sent: " + sets);
    }
  }

  /** MemcacheDB 1.2's part of the protocol that MemSet uses: version, set, stats; ERROR to the rest, mn included. */
  private static FakeMemcache.Answer textOnly(String line, AtomicLong stored) {
    if (line.startsWith("set ")) {
      stored.incrementAndGet();
      return FakeMemcache.Answer.reply("STORED\r\n");
    }
    return FakeMemcache.Answer.reply(switch (line) {
      case "version" -> "VERSION 1.2.0\r\n";
      case "stats" -> "STAT cmd_set " + stored.get() + "\r\nEND\r\n";
      default -> "ERROR\r\n";
    });
  }
}
