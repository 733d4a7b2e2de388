package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.data.ValueSizes;
import couchbench.MemcachedStats;
import couchbench.RunSeconds;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** MemSet then MemGet against a real memcached: the report's counts against memcached's own. */
class MemSetMemGetIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void shouldWriteExactlyTheAcknowledgedKeysAndReadThemAllBack() throws Exception {
    Path keyFile = keyFile();
    try (MemcachedServer memcached = MemcachedServer.start()) {
      // A second of load: the counts below are checked exactly, however many; 4 users send thousands a second here.
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "1", "warmup", "1", "valueSize", "50", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      Map<String, GatlingReport.Counts> setReport = GatlingReport.requests(set.requireRunFolder());
      GatlingReport.Counts sets = setReport.get("memcache set");
      GatlingReport.Counts warmUpSets = setReport.get("warm-up memcache set");
      assertTrue(warmUpSets.ok() > 0 && warmUpSets.ko() == 0, "the warm-up ran under its own name: " + warmUpSets);
      List<String> keys = KeyFiles.written(keyFile); // header, no key twice
      assertTrue(keys.size() > 10, "some keys written: " + keys.size());
      assertTrue(keys.stream().allMatch(key -> key.matches("[0-9a-f]{32}")), "md5 hex keys");
      Map<String, String> afterSet = stats(memcached);
      assertEquals(sets.ok() + warmUpSets.ok(), Long.parseLong(afterSet.get("cmd_set")),
          "Gatling's OK sets, warm-up included = memcached's cmd_set");
      assertEquals(keys.size() + 1, Long.parseLong(afterSet.get("curr_items")),
          "the key file and the warm-up's one key = memcached's items");
      assertEquals(0, sets.ko());
      List<String> summary = Files.readAllLines(set.requireRunFolder().resolve("siege-s-figures.csv"));
      assertTrue(summary.get(1).startsWith("memcache set," + sets.ok() + ",100,"), "siege's figures: " + summary);
      long exactSets = ExactResults.assertClientTimed(set.requireRunFolder(), "memcache set", sets).ok()
          + ExactResults.assertClientTimed(set.requireRunFolder(), "warm-up memcache set", warmUpSets).ok();
      assertEquals(exactSets, Long.parseLong(afterSet.get("cmd_set")), "results.json's OK sets = memcached's cmd_set");

      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "1", "warmup", "1", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, get.exitCode(), get.why());
      Map<String, GatlingReport.Counts> getReport = GatlingReport.requests(get.requireRunFolder());
      GatlingReport.Counts gets = getReport.get("memcache get");
      GatlingReport.Counts warmUpGets = getReport.get("warm-up memcache get");
      Map<String, String> afterGet = stats(memcached);
      assertTrue(gets.ok() > 10, "gets sent: " + gets);
      assertEquals(0, gets.ko());
      assertEquals(gets.ok() + warmUpGets.ok(), Long.parseLong(afterGet.get("get_hits")),
          "Gatling's OK gets, warm-up included = memcached's get_hits");
      assertEquals("0", afterGet.get("get_misses"));
      long exactGets = ExactResults.assertClientTimed(get.requireRunFolder(), "memcache get", gets).ok()
          + ExactResults.assertClientTimed(get.requireRunFolder(), "warm-up memcache get", warmUpGets).ok();
      assertEquals(exactGets, Long.parseLong(afterGet.get("get_hits")), "results.json's OK gets = memcached's get_hits");
      String page = Files.readString(get.requireRunFolder().resolve("summary.html"));
      String drawnFrom = String.format("Keys read: all %,d keys of %s, each request picking one at random.", keys.size(), keyFile);
      assertTrue(page.contains(drawnFrom), "the summary says what the reads drew from: " + drawnFrom);
      // Each of the 4 warm-up users and the 4 measuring users opened its own connection; none dropped.
      assertTrue(page.contains("Memcache connections: " + memcached.address() + ": 8 opened, 0 dropped."), page);
      assertFalse(get.output().contains("memcache connections dropped"), get.output());

      // -Dpipeline=4: each user's gets go 4 at once, each of its own key, each counted and timed on its own.
      GatlingRun.Result pipelined = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "2", "warmup", "0", "pipeline", "4", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, pipelined.exitCode(), pipelined.why());
      GatlingReport.Counts fours = GatlingReport.requests(pipelined.requireRunFolder()).get("memcache get");
      long hits = Long.parseLong(stats(memcached).get("get_hits")) - Long.parseLong(afterGet.get("get_hits"));
      assertEquals(fours.ok(), hits, "Gatling's OK gets = memcached's new get_hits");
      assertEquals(0, fours.ok() % 4, "whole batches of 4: " + fours);
      assertTrue(fours.ok() > 40, "gets sent: " + fours);
      assertTrue(Files.readString(pipelined.requireRunFolder().resolve("summary.html"))
          .contains("each user sends 4 memcache requests at once"), "the summary says how the depth was sent");
    }
  }

  @Test
  void shouldWriteEachKeyTheValueSizeDrawnFromItAndRefuseSizesOverTheServersItemSize() throws Exception {
    Path keyFile = keyFile();
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "2", "warmup", "0", "valueSize", "32-4096", "keyFile", keyFile.toString()),
          TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      GatlingReport.Counts sets = GatlingReport.requests(set.requireRunFolder()).get("memcache set");
      assertEquals(sets.ok(), Long.parseLong(stats(memcached).get("cmd_set")), "Gatling's OK sets = cmd_set");
      ValueSizes sizes = ValueSizes.parse("32-4096");
      Set<Integer> seen = new HashSet<>();
      for (String key : KeyFiles.written(keyFile).subList(0, 30)) {
        int length = MemcachedStats.valueLength(memcached.port(), key);
        assertEquals(sizes.forKey(key), length, "the size follows from the key: " + key);
        seen.add(length);
      }
      assertTrue(seen.size() > 20, "sizes drawn over the range: " + seen);
      // The bytes memcached received in the seconds it was read, against its sets in those seconds: a set's value
      // (2,064 bytes on average over the range), its command line and its line ends.
      RunSeconds seconds = RunSeconds.of(set.requireRunFolder());
      List<Double> received = seconds.column("memcache bytes received (bytes/s)");
      List<Double> setsASecond = seconds.column("memcache sets (/s)");
      double bytes = 0;
      double stored = 0;
      for (int second = 0; second < received.size(); second++) {
        if (!Double.isNaN(received.get(second)) && !Double.isNaN(setsASecond.get(second))) {
          bytes += received.get(second);
          stored += setsASecond.get(second);
        }
      }
      assertTrue(stored > 100 && bytes / stored > 2064 * 0.9 && bytes / stored < 2064 * 1.1 + 120,
          "bytes received a set: " + bytes + " over " + stored + " sets");
      assertTrue(Files.readString(set.requireRunFolder().resolve("summary.html")).contains("Values written: 32-4096"
          + " bytes (uniform) of random text under each new key, the size drawn from the key (-DvalueSize=32-4096)."));

      GatlingRun.Result tooLarge = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "2", "warmup", "0", "valueSize", "100:9,2000000:1", "keyFile",
          keyFile().toString()), TIMEOUT);

      assertEquals(1, tooLarge.exitCode(), tooLarge.why());
      assertTrue(tooLarge.output().contains("couchbench: stopped: memcache server " + memcached.address()
          + " stores items of at most 1048576 bytes (its item_size_max, memcached's -I), and"
          + " -DvalueSize=100:9,2000000:1 reaches 2000000 bytes"), tooLarge.output());
      assertEquals(sets.ok(), Long.parseLong(stats(memcached).get("cmd_set")), "nothing written");
    }
  }

  @Test
  void shouldPaceEachConnectionAtItsRate() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "4", "warmup", "0", "ratePerConnection", "50", "keyFile", keyFile().toString()),
          TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      JsonNode step = ResultsFile.read(set.requireRunFolder()).figures().path("steps").get(0);
      assertEquals(200, step.path("target").asDouble(), "4 connections of 50/s: " + step);
      assertTrue(step.path("achieved").asDouble() >= 180 && step.path("achieved").asDouble() <= 210,
          "the rate held, not more: " + step);
      long sets = GatlingReport.requests(set.requireRunFolder()).get("memcache set").ok();
      assertEquals(sets, Long.parseLong(stats(memcached).get("cmd_set")), "Gatling's OK sets = cmd_set");
      // The measured step's 4 s, and the pacing's start before it: unpaced, 4 users send thousands a second here.
      assertTrue(sets >= 720 && sets <= 900, "about 4 s of 200/s: " + sets);
      assertTrue(Files.readString(set.requireRunFolder().resolve("summary.html")).contains("4 users, each connection"
          + " carrying 50 requests a second (-DratePerConnection), each at its intended start"));
    }
  }

  @Test
  void shouldOpenANewConnectionEveryNRequestsAndCountNoneDropped() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start()) {
      long connectionsBefore = Long.parseLong(stats(memcached).get("total_connections"));
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "2", "warmup", "0", "reconnectEvery", "50", "keyFile", keyFile().toString()),
          TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      long sets = GatlingReport.requests(set.requireRunFolder()).get("memcache set").ok();
      assertEquals(sets, Long.parseLong(stats(memcached).get("cmd_set")), "Gatling's OK sets = cmd_set");
      String page = Files.readString(set.requireRunFolder().resolve("summary.html"));
      Matcher connections = Pattern.compile("Memcache connections: " + Pattern.quote(memcached.address())
          + ": ([0-9,]+) opened, 0 dropped").matcher(page);
      assertTrue(connections.find(), page);
      long opened = Long.parseLong(connections.group(1).replace(",", ""));
      // Each user's connection carries 50 sets, then the next set opens another: a user's last may carry fewer.
      assertTrue(sets > 500 && opened >= sets / 50 && opened <= sets / 50 + 2, opened + " opened for " + sets);
      long serverCounted = Long.parseLong(stats(memcached).get("total_connections")) - connectionsBefore;
      assertTrue(serverCounted >= opened && serverCounted <= opened + 10, "memcached counted " + serverCounted
          + " connections, the load's " + opened + " and couchbench's own few for stats");
      assertTrue(page.contains("each memcache connection is closed and another opened after 50 requests"), page);
    }
  }

  @Test
  void shouldStopWithOneLineWhenTheKeyFileIsMissingOrUnusable() throws Exception {
    Path missing = keyFile();
    Path forbidden = keyFile();
    Files.writeString(forbidden, "key\nabc\nhas space\n");
    Path empty = keyFile();
    Files.writeString(empty, "key\n");
    Map<Path, String> expected = Map.of(
        missing, "key file " + missing + " does not exist: run MemSet first",
        forbidden, "key file " + forbidden + " line 3: key contains whitespace or control characters",
        empty, "key file " + empty + " holds no keys");
    for (Map.Entry<Path, String> file : expected.entrySet()) {
      GatlingRun.Result run = GatlingRun.run("MemGet", Map.of("memcache.servers", "127.0.0.1:1",
          "keyFile", file.getKey().toString()), TIMEOUT);

      assertEquals(1, run.exitCode(), run.why());
      assertTrue(run.output().contains(file.getValue()), run.output());
      assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
    }
  }

  @Test
  void shouldStopWithOneLineWhenMemcacheIsDownOrAParameterIsBad() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = socket.getLocalPort();
    }
    try (ServerSocket untouched = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Map<Map<String, String>, String> expected = Map.of(
          Map.of("memcache.servers", "127.0.0.1:" + closed), "memcache server 127.0.0.1:" + closed
              + " does not answer (connection refused): start it or fix -Dmemcache.servers",
          Map.of("memcache.servers", "127.0.0.1:" + untouched.getLocalPort(), "users", "0"),
          "-Dusers=0 is too small (expected >= 1)",
          Map.of("memcache.servers", "127.0.0.1:" + untouched.getLocalPort(), "duration", "-1"),
          "-Dduration=-1 is too small (expected >= 1)");
      for (Map.Entry<Map<String, String>, String> run : expected.entrySet()) {
        GatlingRun.Result result = GatlingRun.run("MemSet", run.getKey(), TIMEOUT);

        assertEquals(1, result.exitCode(), result.why());
        assertTrue(result.output().contains("couchbench: stopped: " + run.getValue()), result.output());
        assertFalse(result.output().contains("\tat "), "no stack trace:\n" + result.output());
      }
      untouched.setSoTimeout(1);
      assertThrows(SocketTimeoutException.class, untouched::accept, "bad parameters: nothing sent to memcache");
    }
  }

  @Test
  void shouldFailRequestsEndOnTimeAndStillReportWhenMemcachedDiesMidRun() throws Exception {
    Path keyFile = keyFile();
    MemcachedServer memcached = MemcachedServer.start();
    ExecutorService killer = Executors.newSingleThreadExecutor();
    try {
      // Killed once the load is flowing (on a loaded machine the Gatling JVM may take seconds to start): at 100 sets,
      // a small fraction of what 3 users reach in 6 s even on a slow machine, so that the kill comes mid-run.
      killer.execute(() -> {
        try {
          while (Long.parseLong(stats(memcached).getOrDefault("cmd_set", "0")) < 100) {
            Thread.sleep(100);
          }
        } catch (IOException | InterruptedException e) {
          // killed early: the assertions below say what happened
        }
        memcached.close();
      });
      long start = System.nanoTime();
      GatlingRun.Result run = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "3", "duration", "6", "warmup", "0", "keyFile", keyFile.toString()), TIMEOUT);
      double seconds = (System.nanoTime() - start) / 1e9;

      assertNotEquals(0, run.exitCode(), "failed requests fail the run's assertion");
      assertTrue(seconds < 60, "the run ends on time: " + seconds + " s");
      Path folder = run.requireRunFolder();
      assertTrue(Files.exists(folder.resolve("index.html")), "the report is written");
      GatlingReport.Counts sets = GatlingReport.requests(folder).get("memcache set");
      assertTrue(sets.ok() > 0 && sets.ko() > 0, sets.toString());
      Map<String, Long> errors = GatlingReport.errors(folder);
      assertFalse(errors.isEmpty(), "the failures are in the report's error table");
      assertTrue(errors.keySet().stream().allMatch(message -> message.startsWith("connection")),
          "grouped connection failures: " + errors);
      assertEquals(sets.ok(), Files.readAllLines(keyFile).size() - 1, "only acknowledged keys");
      Results.ServerConnections connections = ResultsFile.read(folder).memcacheConnections().get(0);
      // The kill dropped each of the 3 users' connections; a user may get a new one while memcached is going down,
      // and that one is dropped too: every connection opened ended dropped, and every one after the first reopened.
      assertTrue(connections.droppedInAll() >= 3 && connections.droppedInAll() == connections.opened()
          && connections.reopened() == connections.opened() - 3, "each user's connections all dropped: " + connections);
      assertTrue(run.output().contains("couchbench: memcache connections dropped: " + connections.describe()),
          run.output());
      assertTrue(Files.readString(folder.resolve("summary.html")).contains("Memcache connections dropped: "
          + connections.describe()), "and the summary");
    } finally {
      killer.shutdownNow();
      memcached.close();
    }
  }

  @Test
  void shouldExpireEachValueAtTheTimeItsKeyCarriesAndCountExpiredReadsApart() throws Exception {
    Path keyFile = keyFile();
    try (MemcachedServer memcached = MemcachedServer.start()) {
      long before = System.currentTimeMillis() / 1000;
      GatlingRun.Result set = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "2", "warmup", "1", "expiry", "2-40", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      long after = System.currentTimeMillis() / 1000;
      Map<String, GatlingReport.Counts> written = GatlingReport.requests(set.requireRunFolder());
      GatlingReport.Counts sets = written.get("memcache set");
      assertEquals(sets.ok() + written.get("warm-up memcache set").ok() + 1,
          Long.parseLong(stats(memcached).get("cmd_set")), "Gatling's OK sets and the expiry probe's one = cmd_set");
      assertEquals(-1, MemcachedStats.secondsLeft(memcached.port(), "couchbench:warm-up"),
          "the warm-up's one key never expires: one item, not one a second");
      List<String> keys = KeyFiles.written(keyFile);
      Pattern stamped = Pattern.compile("[0-9a-f]{32}-x(\\d+)");
      for (String key : keys.subList(0, 20)) {
        Matcher expiresAt = stamped.matcher(key);
        assertTrue(expiresAt.matches(), "each key carries its expiry time: " + key);
        long at = Long.parseLong(expiresAt.group(1));
        assertTrue(at >= before + 2 && at <= after + 40, "within -Dexpiry=2-40 of its set: " + key);
        long left = MemcachedStats.secondsLeft(memcached.port(), key);
        long expected = at - System.currentTimeMillis() / 1000;
        assertTrue(left == -2 ? expected <= 1 : Math.abs(left - expected) <= 1,
            "memcached expires it when its key says: " + left + " s left, " + expected + " expected for " + key);
      }
      assertTrue(Files.readString(set.requireRunFolder().resolve("summary.html"))
          .contains("each value expiring 2-40 s after its set, drawn uniformly (-Dexpiry)"), "the page says so");

      Map<String, String> beforeGet = stats(memcached);
      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "3", "warmup", "0", "keyFile", keyFile.toString()), TIMEOUT);

      assertEquals(0, get.exitCode(), get.why());
      Map<String, GatlingReport.Counts> reads = GatlingReport.requests(get.requireRunFolder());
      GatlingReport.Counts live = reads.get("memcache get");
      GatlingReport.Counts expired = reads.get("memcache get expired");
      assertTrue(live.ok() > 100 && live.ko() == 0, "keys before their expiry time found: " + live);
      assertTrue(expired != null && expired.ok() > 0 && expired.ko() == 0, "keys past it gone, no failure: " + reads);
      GatlingReport.Counts near = reads.getOrDefault("memcache get near expiry", new GatlingReport.Counts(0, 0, 0));
      Map<String, String> afterGet = stats(memcached);
      assertEquals(live.ok() + expired.ok() + near.ok(),
          delta(beforeGet, afterGet, "get_hits") + delta(beforeGet, afterGet, "get_misses"),
          "every OK get = memcached's new hits and misses");
      List<Results.ServerCount> counts = ResultsFile.read(get.requireRunFolder()).serverCounts();
      assertEquals(2, counts.size(), "hits against live gets, misses against expired gets (get_expired, or reclaimed"
          + " by memcached's crawler first)");
      for (Results.ServerCount counted : counts) {
        assertTrue(counted.agrees(), counted.describe());
      }
      String page = Files.readString(get.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("memcache get expired"), "the expired reads have their own row");
    }
  }

  @Test
  void shouldFailAReadThatContradictsItsKeysExpiryTimeAndRefuseAServerThatIgnoresExptime() throws Exception {
    Path keyFile = keyFile();
    long now = System.currentTimeMillis() / 1000;
    String keptPastExpiry = "0cc175b9c0f1b6a831c399e269772661-x" + (now - 100);
    String lostBeforeExpiry = "92eb5ffee6ae2fec3ad71c777531578f-x" + (now + 3600);
    Files.writeString(keyFile, "key\n" + keptPastExpiry + "\n" + lostBeforeExpiry + "\n");
    try (MemcachedServer memcached = MemcachedServer.start();
        NoExpiryProxy noExpiry = new NoExpiryProxy(memcached.port())) {
      try (Socket socket = new Socket("127.0.0.1", memcached.port())) {
        socket.getOutputStream().write(("set " + keptPastExpiry + " 0 0 4\r\nkept\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        assertEquals("STORED", new BufferedReader(new InputStreamReader(socket.getInputStream(),
            StandardCharsets.US_ASCII)).readLine(), "a value kept past its key's expiry time, as by a server's fault");
      }
      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "1", "duration", "1", "warmup", "0", "keyFile", keyFile.toString()), TIMEOUT);

      assertNotEquals(0, get.exitCode(), get.why());
      Set<String> errors = GatlingReport.errors(get.requireRunFolder()).keySet();
      assertTrue(errors.stream().anyMatch(error -> error.contains("VALUE after its expiry time")), errors.toString());
      assertTrue(errors.stream().anyMatch(error -> error.contains("NOT_FOUND before its expiry time")),
          errors.toString());

      GatlingRun.run("MemSet", Map.of("memcache.servers", noExpiry.address(), "expiry", "60",
          "keyFile", keyFile.toString()), TIMEOUT).assertStoppedBeforeLoad("couchbench: stopped: memcache server "
          + noExpiry.address() + " kept a value whose exptime had passed (key couchbench:expiry-probe): it does not"
          + " expire values, as MemcacheDB does not, and every read of an expired key would fail; leave -Dexpiry out"
          + " for this server");
      assertEquals(-2, MemcachedStats.secondsLeft(memcached.port(), "couchbench:expiry-probe"), "the probe deleted");
    }
  }

  @Test
  void shouldReadKeysNearTheirExpiryTimeAsEitherAndKeepTheServerCountsExact() throws Exception {
    Path keyFile = keyFile();
    Instant start = Instant.now().plusSeconds(10).truncatedTo(ChronoUnit.SECONDS);
    long expiresAt = start.getEpochSecond() + 2;
    String key = "0cc175b9c0f1b6a831c399e269772661-x" + expiresAt;
    Files.writeString(keyFile, "key\n" + key + "\n");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      try (Socket socket = new Socket("127.0.0.1", memcached.port())) {
        socket.getOutputStream().write(("set " + key + " 0 " + expiresAt + " 4\r\nnear\r\n")
            .getBytes(StandardCharsets.US_ASCII));
        assertEquals("STORED", new BufferedReader(new InputStreamReader(socket.getInputStream(),
            StandardCharsets.US_ASCII)).readLine());
      }
      // One key, read from 2 s before its expiry time to 2 s after: every draw near it for the last 3 s.
      GatlingRun.Result get = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "1", "duration", "4", "warmup", "0", "startAt", start.toString(), "keyFile", keyFile.toString()),
          TIMEOUT);

      assertEquals(0, get.exitCode(), get.why());
      GatlingReport.Counts near = GatlingReport.requests(get.requireRunFolder()).get("memcache get near expiry");
      assertTrue(near != null && near.ok() > 0 && near.ko() == 0, "found or not, no failure: " + near);
      List<Results.ServerCount> counts = ResultsFile.read(get.requireRunFolder()).serverCounts();
      assertEquals(2, counts.size());
      for (Results.ServerCount counted : counts) {
        assertTrue(counted.agrees(), "the near-expiry gets' hits and misses taken off: " + counted.describe());
      }
    }
  }

  private static long delta(Map<String, String> before, Map<String, String> after, String stat) {
    return Long.parseLong(after.get(stat)) - Long.parseLong(before.get(stat));
  }

  private static Path keyFile() throws IOException {
    return KeyFiles.fresh("memcache");
  }

  private static Map<String, String> stats(MemcachedServer memcached) throws IOException {
    return MemcachedStats.of(memcached.port());
  }
}
