package couchbench.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.Prerequisites;
import couchbench.startup.RunClock;
import couchbench.targets.ChildJvm;
import couchbench.targets.CouchTarget;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A run whose machine's wall clock steps an hour forward after the run's clock was read (a virtual machine's host
 * setting its guest's time): its background task is stamped on the run's clock, where the load and the servers are
 * drawn, not an hour off them. Debian's libfaketime, preloaded into a JVM of its own, steps that JVM's wall clock and
 * leaves System.nanoTime alone.
 */
class BackgroundClockIT {

  private static final long HOUR_MILLIS = TimeUnit.HOURS.toMillis(1);

  @Test
  void shouldStampTheSteadyLoadAndATaskOnTheRunsClockWhenTheWallClockStepsAnHourDuringTheRun() throws Exception {
    Path faketime = Prerequisites.libfaketime(BackgroundClockIT.class);
    Path offset = Files.createTempFile("couchbench-clock-", ".offset");
    Files.writeString(offset, "+0\n");
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(ChildJvm.definitions(Map.of()));
    command.addAll(List.of("-cp", classpath, SteppedRun.class.getName(), offset.toString()));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().putAll(Map.of("LD_PRELOAD", faketime.toString(), "FAKETIME_TIMESTAMP_FILE",
        offset.toString(), "FAKETIME_CACHE_DURATION", "1", "FAKETIME_DONT_FAKE_MONOTONIC", "1"));
    Process child = builder.start();
    assertTrue(child.waitFor(2, TimeUnit.MINUTES), "the stepped run did not end within 2 minutes");
    String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), output);
    Map<String, Long> read = new HashMap<>();
    output.lines().filter(line -> line.matches("\\w+=-?\\d+"))
        .forEach(line -> read.put(line.split("=")[0], Long.parseLong(line.split("=")[1])));
    assertTrue(read.keySet().containsAll(List.of("wallAhead", "steady", "steadyOnRunClock", "taskStart",
        "runClockAfter")), output);

    assertTrue(read.get("wallAhead") > HOUR_MILLIS - 60_000, "the wall clock stepped an hour after the run's clock"
        + " was read, else this test shows nothing:\n" + output);
    assertTrue(Math.abs(read.get("steady") - read.get("steadyOnRunClock")) < 5_000,
        "the steady load's start is on the run's clock, not the wall clock's:\n" + output);
    assertTrue(read.get("taskStart") >= read.get("steady") && read.get("taskStart") <= read.get("runClockAfter"),
        "the task started on the run's clock, between the steady load's start and the run's end:\n" + output);
  }

  /**
   * The stepped run: reads the run's clock (as a run does at its start), steps its own wall clock an hour forward
   * through libfaketime's file, then starts the background work with one compaction of a CouchDB that is not there
   * (refused at once, its start still stamped), and prints what it stamped, name=value a line.
   */
  static final class SteppedRun {

    private SteppedRun() {}

    /**
     * @param args libfaketime's offset file
     * @throws Exception when the run cannot be made
     */
    public static void main(String[] args) throws Exception {
      RunClock.millis();
      Files.writeString(Path.of(args[0]), "+3600\n");
      // libfaketime reads its file again once FAKETIME_CACHE_DURATION has passed, counted in whole seconds.
      long waited = System.nanoTime();
      while (System.currentTimeMillis() - RunClock.millis() < HOUR_MILLIS / 2
          && System.nanoTime() - waited < TimeUnit.SECONDS.toNanos(10)) {
        Thread.sleep(100);
      }
      System.out.println("wallAhead=" + (System.currentTimeMillis() - RunClock.millis()));
      CountDownLatch ended = new CountDownLatch(1);
      BackgroundWork work = BackgroundWork.start(new BackgroundPlan(List.of(BackgroundPlan.Kind.COMPACT),
          Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1), Optional.empty(), Optional.empty()), Optional.of(nowhere()), List.of(),
          "clock_steps", Optional.empty(), line -> {
            System.out.println(line);
            ended.countDown();
          });
      work.steadyLoadBegins();
      System.out.println("steadyOnRunClock=" + RunClock.millis());
      if (!ended.await(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("the task did not end within 30 s");
      }
      List<BackgroundTask> tasks = work.stop();
      System.out.println("steady=" + work.steadyMillis());
      System.out.println("taskStart=" + tasks.get(0).startMillis());
      System.out.println("runClockAfter=" + RunClock.millis());
    }

    // A CouchDB on a port of 127.0.0.1 where nothing listens: every request of the task is refused at once.
    private static CouchTarget nowhere() throws IOException {
      try (ServerSocket socket = new ServerSocket(0)) {
        return new CouchTarget("http://127.0.0.1:" + socket.getLocalPort(), Optional.empty(), false);
      }
    }
  }
}
