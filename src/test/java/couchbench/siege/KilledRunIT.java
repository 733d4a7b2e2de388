package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.requests.MemcacheRequests;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * MemSet's JVM killed with SIGKILL in the middle of the load: the keys its part file holds, as of the last flush, are
 * all readable and all on memcached, and the previous key file is untouched.
 */
class KilledRunIT {

  private static final String PREVIOUS = "key\nkept-1\nkept-2\n";
  private static final Pattern PART = Pattern.compile("couchbench: key file: acknowledged keys go to (\\S+) as they come.*");

  @Test
  void shouldKeepEveryFlushedKeyReadableAndAcknowledgedWhenKilled() throws Exception {
    Path keyFile = Files.writeString(KeyFiles.fresh("killed"), PREVIOUS);
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Running run = GatlingRun.start("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "60", "warmup", "1", "keyFile", keyFile.toString()), Map.of());
      Matcher named = PART.matcher(run.awaitLine(PART.pattern(), Duration.ofMinutes(1)));
      assertTrue(named.matches());
      Path part = Path.of(named.group(1));
      run.awaitLine("Simulation MemSet started.*", Duration.ofMinutes(1));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (Files.size(part) < 500_000) { // some 15,000 keys: several flushes in
        assertTrue(run.process().isAlive() && System.nanoTime() < deadline, "no keys flushed:\n" + run.output());
        Thread.sleep(20);
      }
      run.process().destroyForcibly(); // SIGKILL: no shutdown hook, no last flush
      assertTrue(run.process().waitFor(10, TimeUnit.SECONDS));

      assertEquals(PREVIOUS, Files.readString(keyFile), "the previous key file, untouched");
      List<String> keys = MemcacheRequests.readKeys(part).keys(); // checks every line; a cut last one is left out
      assertTrue(keys.size() > 10_000, "flushed keys: " + keys.size());
      assertEquals(keys.size(), MemcachedStats.held(memcached.port(), keys), "every flushed key is on memcached");
    }
  }
}
