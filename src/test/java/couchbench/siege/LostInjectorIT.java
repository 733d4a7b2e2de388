package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.Injectors;
import couchbench.MemcachedStats;
import couchbench.merge.MergeCommand;
import couchbench.requests.MemcacheRequests;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Three MemSet injectors of one run, the third SIGKILLed in the middle of its load (a pod evicted, a machine lost):
 * the two that ended merge into "2 of 3", exec:java@merge exits 3 naming the lost one and why, the lost one's flushed
 * keys are joined as partial, and memcached's cmd_set change is at least the two's acknowledged sets and the lost one's
 * flushed keys. Three Gatling JVMs at once with 5 s of load, and Merge: 33 s on 2 cores.
 */
class LostInjectorIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final Pattern PART =
      Pattern.compile("couchbench: key file: acknowledged keys go to (\\S+) as they come.*");

  @Test
  void shouldMergeTheTwoThatEndedWhenTheThirdInjectorIsKilledMidRun() throws Exception {
    Path keyFile = KeyFiles.fresh("memcache-lost");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      long setsBefore = MemcachedStats.count(memcached.port(), "cmd_set");
      Injectors.Started started = Injectors.start("MemSet", 3, Map.of("memcache.servers", memcached.address(),
          "users", "3", "duration", "5", "warmup", "1", "valueSize", "50", "keyFile", keyFile.toString()), TIMEOUT);
      GatlingRun.Running doomed = started.injectors().get(2);
      Matcher named = PART.matcher(doomed.awaitLine(PART.pattern(), TIMEOUT));
      assertTrue(named.matches());
      Path part = Path.of(named.group(1));
      doomed.awaitLine("couchbench: injector 2/3: load starts.*", TIMEOUT);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (Files.size(part) < 20_000) { // some 500 keys, flushed in the measured load after the 1 s warm-up
        assertTrue(doomed.process().isAlive() && System.nanoTime() < deadline, "no keys flushed:\n" + doomed.output());
        Thread.sleep(20);
      }
      doomed.process().destroyForcibly(); // SIGKILL: no shutdown hook, no results
      GatlingRun.Result killed = doomed.finish(TIMEOUT);
      List<Path> folders = new ArrayList<>();
      for (GatlingRun.Running injector : started.injectors().subList(0, 2)) {
        GatlingRun.Result ended = injector.finish(TIMEOUT);
        assertEquals(0, ended.exitCode(), ended.why());
        folders.add(ended.requireRunFolder());
      }
      killed.runFolder().ifPresent(folders::add); // Gatling had made it: Merge leaves it out, and looks beside it

      Injectors.Merged merge = Injectors.merge(folders, "2=ended with exit code " + killed.exitCode());

      assertEquals(MergeCommand.SOME_LOST, merge.exitCode(), merge.printed());
      assertTrue(merge.printed().strip().endsWith("merge: 2 of 3 injectors; injector 2/3: ended with exit code 137"),
          merge.printed());
      assertTrue(merge.printed().lines().noneMatch(line -> line.startsWith("\tat ")), "no stack trace");
      assertNotNull(merge.merged(), merge.printed());
      Results merged = ResultsFile.read(merge.merged());
      assertEquals("*/2", merged.run().injector());
      Results.LostInjector lost = merged.lostInjectors().get(0);
      assertEquals("2/3", lost.injector());
      Results.LostKeyFile partial = lost.keyFiles().get(0);
      assertEquals(Results.LostKeyFile.PARTIAL, partial.state());
      List<String> flushed = MemcacheRequests.readKeys(part).keys(); // a cut last line left out
      assertEquals(flushed.size(), partial.keys(), "the lost injector's whole flushed keys");

      long endedSets = merged.requests().stream().filter(e -> e.name().endsWith("memcache set"))
          .mapToLong(Results.Entry::ok).sum();
      long change = MemcachedStats.count(memcached.port(), "cmd_set") - setsBefore;
      Results.ServerCount count = merged.serverCounts().get(0);
      assertEquals(endedSets + flushed.size(), count.acknowledged(), "the two's sets and the lost one's flushed keys");
      assertEquals(change, count.change(), "the merged check is memcached's own change, all three injectors' sets");
      assertTrue(count.agrees() && change >= count.acknowledged(), count.describe());
      assertTrue(count.incomplete().contains("lost injector 2/3"), count.describe());

      List<String> keys = KeyFiles.written(merge.merged().resolve(merged.keyFiles().get(0).path()));
      Set<String> expected = new HashSet<>(flushed);
      for (Path folder : folders.subList(0, 2)) {
        expected.addAll(KeyFiles.written(folder.resolve(ResultsFile.read(folder).keyFiles().get(0).path())));
      }
      assertEquals(expected, new HashSet<>(keys), "the two's key files and the lost one's flushed keys");
      assertEquals(keys.size(), MemcachedStats.held(memcached.port(), keys), "every merged key is on memcached");
      String page = Files.readString(merge.merged().resolve("summary.html"));
      assertTrue(page.contains("2 of 3 injectors; injector 2/3: ended with exit code 137: every figure below is of the"
          + " 2 that ended."), page);
    }
  }
}
