package couchbench.trend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.Injectors;
import couchbench.RunSeconds;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * -Dtrend on a real memcached: MemSet of new keys makes its memory grow, and the run ends with exit code 7, as does
 * its merge (exec:java@merge, which judges each injector's seconds); MemGet of
 * the keys it wrote, on the same server, leaves the memory flat and passes. Each run is just long enough to be judged
 * (30 seconds sampled); the threshold, +100%/h, is wide for so short a run, where a few hundred KB are tens of % an
 * hour, and far below the sets' rise. The values are small enough that the keys fit in memcached's 256 MB: an evicted
 * key would be a failed get.
 */
class TrendIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final String RSS = "memcached resident memory (MB)";
  private static final Pattern VERDICT = Pattern.compile("couchbench: trend: " + Pattern.quote(RSS)
      + ": ([+-][0-9.]+)%/h \\(95%: ([+-][0-9.]+) to ([+-][0-9.]+)\\) against \\+100%/h: (.+)");

  @Test
  void shouldEndARunWhoseServerMemoryRisesWithCode7AndPassTheSameServerHeldFlat() throws Exception {
    Path keyFile = Files.createTempDirectory("couchbench-trend-").resolve("keys.csv");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result sets = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "32", "warmup", "0", "valueSize", "50", "keyFile", keyFile.toString(),
          "trend", "rss:+100%/h"), TIMEOUT);

      assertEquals(TrendExtension.RISES, sets.exitCode(), sets.why());
      Matcher rising = verdict(sets);
      assertEquals("rises", rising.group(4));
      assertTrue(Double.parseDouble(rising.group(2)) > 100, "the whole interval above the threshold: " + rising.group());
      List<Double> memory = RunSeconds.of(sets.requireRunFolder()).column(RSS).stream().filter(mb -> !mb.isNaN())
          .toList();
      assertTrue(memory.get(memory.size() - 1) > memory.get(0) + 20, "memcached's memory grew: " + memory);
      assertTrue(sets.output().contains("couchbench: WARNING: trend: a series rose beyond its threshold (-Dtrend):"
          + " exit code 7"), sets.output());
      String page = Files.readString(sets.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Trends (-Dtrend)") && page.contains("Trend: " + RSS + ", rises"), "the table, and"
          + " the series' chart with its line");
      // Merged (here, the one run as its only injector), each injector's seconds are judged as its run judged them,
      // and the merge ends with 7 too.
      Injectors.Merged merged = Injectors.merge(List.of(sets.requireRunFolder()), "");
      assertEquals(TrendExtension.RISES, merged.exitCode(), merged.printed());
      String mergedPage = Files.readString(merged.merged().resolve("summary.html"));
      assertTrue(mergedPage.contains("Trend: injector 0/1: " + RSS + ", rises"), "the merged page's chart, named after"
          + " its injector: " + merged.merged());

      GatlingRun.Result gets = GatlingRun.run("MemGet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "32", "warmup", "0", "keyFile", keyFile.toString(), "trend", "rss:+100%/h"),
          TIMEOUT);

      assertEquals(0, gets.exitCode(), gets.why());
      Matcher flat = verdict(gets);
      assertEquals("holds", flat.group(4), flat.group());
      assertTrue(Math.abs(Double.parseDouble(flat.group(1))) < 100, flat.group());
    }
  }

  private static Matcher verdict(GatlingRun.Result run) {
    Matcher verdict = VERDICT.matcher(run.output());
    assertTrue(verdict.find(), "a verdict on " + RSS + ":\n" + run.output());
    return verdict;
  }
}
