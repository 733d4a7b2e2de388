package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.RunSeconds;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A run second by second against a real memcached that a test stops (SIGSTOP) for 2 s mid-load: the stop shows in the
 * load's seconds (no request ends, then requests that waited through it) and in the server's (its stats unread).
 */
class RunSecondsIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void shouldShowAServerStoppedFor2SecondsInTheLoadsSecondsAndInTheServersOwn() throws Exception {
    Path keyFile = Files.createDirectories(Path.of("target", "it-keys")).resolve("seconds-" + System.nanoTime()
        + ".csv");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Running running = GatlingRun.start("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "2", "duration", "9", "warmup", "0", "keyFile", keyFile.toString()), Map.of());
      running.awaitLine("couchbench: run folder: .*", TIMEOUT);
      Thread.sleep(3000);
      signal("STOP", memcached.pid());
      Thread.sleep(2000);
      signal("CONT", memcached.pid());
      GatlingRun.Result run = running.finish(TIMEOUT);

      assertEquals(0, run.exitCode(), "requests wait through the stop, none fails: " + run.output());
      RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
      List<Double> requests = seconds.column("requests (/s)");
      List<Double> sets = seconds.column("memcache sets (/s)");
      List<Double> max = seconds.column("max (ms)");
      int stopped = IntStream.range(1, requests.size() - 1).filter(second -> requests.get(second) == 0).findFirst()
          .orElseThrow(() -> new AssertionError("a second without a request ending: " + requests));
      assertTrue(IntStream.range(stopped, requests.size()).anyMatch(second -> max.get(second) >= 1000),
          "requests that waited through the stop end after it, slow: " + max);
      assertTrue(Double.isNaN(sets.get(stopped)), "the server's stats unread while it was stopped: " + sets);
      assertTrue(IntStream.range(1, stopped).anyMatch(second -> sets.get(second) > 100),
          "read before the stop: " + sets);
      assertTrue(IntStream.range(stopped + 1, sets.size()).anyMatch(second -> sets.get(second) > 100),
          "and after it: " + sets);
      assertTrue(seconds.column("load generator cpu (% of a core)").stream().anyMatch(cpu -> cpu > 0));
      // Sets allocate: collections run, and the heap each left is sampled apart from the heap in use.
      List<Double> afterGc = seconds.column("load generator heap after GC (MB)").stream()
          .filter(mb -> !Double.isNaN(mb)).toList();
      double mostInUse = seconds.column("load generator heap (MB)").stream().filter(mb -> !Double.isNaN(mb))
          .mapToDouble(Double::doubleValue).max().orElseThrow();
      assertTrue(!afterGc.isEmpty() && afterGc.stream().allMatch(mb -> mb > 0 && mb < mostInUse),
          "the heap after GC, under the most in use (" + mostInUse + " MB): " + afterGc);
      // MemSet sets new keys: the bytes memcached's items hold grow over the run.
      List<Double> stored = seconds.column("memcache stored (MB)").stream().filter(mb -> !Double.isNaN(mb)).toList();
      assertTrue(stored.get(stored.size() - 1) > stored.get(0), "the items' memory grows: " + stored);
      String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Servers second by second: memcache stats not read in"), "the gap said on the page");
    }
  }

  private static void signal(String signal, long pid) throws Exception {
    assertEquals(0, new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start().waitFor());
  }
}
