package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * A run's limit is how long it may go without progress, not a wall-clock time: shell scripts stand in for Gatling
 * JVMs, printing as a run prints.
 */
class GatlingRunTest {

  private static final Duration STALL = Duration.ofSeconds(1);

  @TempDir
  Path folder;

  @Test
  void shouldLetARunThatKeepsMakingProgressGoOnPastItsStallLimit() throws Exception {
    // 3 s in all, a progress line with a rate every 0.3 s: three times the limit, never 1 s without progress.
    GatlingRun.Running running = running("i=0; while [ $i -lt 10 ]; do i=$((i+1));"
        + " echo \"couchbench: progress: so far $((i*10)) writes, 33/s, 0 failed\"; sleep 0.3; done; exit 3");

    GatlingRun.Result run = running.finish(STALL);

    assertEquals(3, run.exitCode(), "it ended by itself: " + run.output());
    assertTrue(run.output().contains("so far 100 writes"), run.output());
  }

  @Test
  void shouldLetASlowRunWhoseCountsRiseGoOnThoughItsRatesRoundTo0() throws Exception {
    GatlingRun.Running running = running("i=0; while [ $i -lt 10 ]; do i=$((i+1));"
        + " echo \"couchbench: progress: so far $i writes, 0/s, 0 failed; about $((20-i)) s left\"; sleep 0.3; done");

    assertEquals(0, running.finish(STALL).exitCode());
  }

  @Test
  void shouldKillARunThatPrintsNothingForItsStallLimit() throws Exception {
    GatlingRun.Running running = running("echo started; sleep 30");

    long start = System.nanoTime();
    AssertionFailedError failed = assertThrows(AssertionFailedError.class, () -> running.finish(STALL));

    assertTrue(failed.getMessage().startsWith("Script showed no progress for PT1S: killed\nstarted"),
        failed.getMessage());
    assertFalse(running.process().isAlive());
    assertTrue(System.nanoTime() - start < Duration.ofSeconds(10).toNanos(), "killed soon after its limit");
  }

  @Test
  void shouldKillARunWhoseProgressLinesSayNothingEnded() throws Exception {
    // A hung load: the progress line goes on, every rate 0/s.
    GatlingRun.Running running = running("echo \"couchbench: progress: so far 10 writes, 5/s, 0 failed\"; while true;"
        + " do echo \"couchbench: progress: so far 10 writes, 0/s, 0 failed; about 1 min 10 s left\"; sleep 0.2; done");

    AssertionFailedError failed = assertThrows(AssertionFailedError.class, () -> running.finish(STALL));

    assertTrue(failed.getMessage().startsWith("Script showed no progress for PT1S"), failed.getMessage());
    assertFalse(running.process().isAlive());
  }

  @Test
  void shouldFailAWaitForALineWhenTheRunStallsFirst() throws Exception {
    GatlingRun.Running running = running("echo \"couchbench: settings: x\"; sleep 30");

    AssertionFailedError failed = assertThrows(AssertionFailedError.class,
        () -> running.awaitLine("couchbench: progress: .*", STALL));

    assertTrue(failed.getMessage().startsWith("Script showed no progress for PT1S: killed, printing no line like"
        + " couchbench: progress: .*"), failed.getMessage());
  }

  @Test
  void shouldTakeAProgressLinesCountsWithoutItsRatesAndTimeLeft() {
    assertEquals("couchbench: progress: so far 1,200 writes, 0 failed; 3,000 listens, 2 failed", GatlingRun.counts(
        "couchbench: progress: so far 1,200 writes, 1,024/s, 0 failed; 3,000 listens, 0/s, 2 failed; about 1 min 5 s"
            + " left"));
  }

  private GatlingRun.Running running(String script) throws IOException {
    Path log = folder.resolve("run.log");
    Process process = new ProcessBuilder(List.of("sh", "-c", script)).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    return new GatlingRun.Running("Script", process, log, folder);
  }
}
