package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.targets.MemcachedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * The disk of MemSet's key file fills during the load (a 256 KB tmpfs, full within a second or two of sets): the run
 * stops with one line naming the key file and the disk, and the part file holds whole lines only, each a key memcached
 * holds. Mounting a tmpfs needs root: the test fails, saying so, without it (.ci/run and CI run as root). One Gatling
 * run stopped within its first seconds of load, 6 s here.
 */
class DiskFullIT {

  private static final Pattern STOPPED = Pattern.compile("couchbench: stopped: key file (\\S+): its part file (\\S+)"
      + " cannot be written \\(No space left on device\\) on the disk of (\\S+) \\(tmpfs tmpfs, \\d+ bytes free\\):"
      + " free space there, or give -DkeyFile on another disk; the (\\d+) keys acknowledged up to its last flush are"
      + " in \\S+, whole lines only");

  @Test
  void shouldStopWithOneLineNamingTheDiskAndKeepWholeLinesUpToTheLastFlush() throws Exception {
    assertEquals("0", run("id", "-u").strip(), "DiskFullIT mounts a tmpfs, which needs root: run the suite as root"
        + " (as .ci/run and CI do)");
    Path disk = Files.createDirectories(Path.of("target", "it-disk-full-" + System.nanoTime())).toAbsolutePath();
    run("mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", disk.toString());
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result result = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "4", "duration", "30", "warmup", "0", "valueSize", "50",
          "keyFile", disk.resolve("memcache.csv").toString()), Duration.ofMinutes(2));

      assertEquals(1, result.exitCode(), result.why());
      Matcher stopped = STOPPED.matcher(result.output().lines().filter(line -> line.startsWith("couchbench: stopped:"))
          .findFirst().orElse(""));
      assertTrue(stopped.matches(), "one line naming the key file and the disk:\n" + result.output());
      assertEquals(disk.toString(), stopped.group(3));
      assertTrue(result.output().lines().noneMatch(line -> line.startsWith("\tat ")), "no stack trace");
      Path part = Path.of(stopped.group(2));
      String written = Files.readString(part, StandardCharsets.UTF_8);
      assertTrue(written.endsWith("\n"), "no partial last line");
      List<String> keys = KeyFiles.written(part);
      assertEquals(Long.parseLong(stopped.group(4)), keys.size(), "the line says how many keys are kept");
      assertTrue(keys.size() > 1000 && keys.stream().allMatch(key -> key.matches("[0-9a-f]{32}")), "whole keys");
      assertEquals(keys.size(), MemcachedStats.held(memcached.port(), keys), "each one acknowledged: on memcached");
    } finally {
      run("umount", disk.toString());
    }
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", command));
    assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
    return output;
  }
}
