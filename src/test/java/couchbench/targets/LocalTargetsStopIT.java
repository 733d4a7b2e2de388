package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The local servers a run starts (no -Dcouchdb.url, no -Dmemcache.servers) end with the run however it ends:
 * Ctrl-C in the middle of the load, or a stop on an error after the server started. Nothing is left running,
 * listening, or on disk.
 */
class LocalTargetsStopIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final Duration GONE = Duration.ofSeconds(5);
  private static final Pattern MEMCACHED = Pattern.compile(
      "couchbench: started local memcached .* at 127\\.0\\.0\\.1:(\\d+) with .*");
  private static final Pattern POUCHDB = Pattern.compile(
      "couchbench: started local pouchdb-server .* at http://127\\.0\\.0\\.1:(\\d+) \\(data in ([^),]+)\\).*");
  private static final String PREVIOUS_KEYS = "key\nkept\n";

  @Test
  void shouldStopLocalMemcachedAndKeepThePreviousKeyFileOnCtrlC() throws Exception {
    Matcher started = interruptedWriteRun("MemSet", MEMCACHED);

    assertTrue(Net.deletedWithin(MemcachedServer.HOME.resolve("memcached-" + started.group(1) + ".log"), GONE),
        "its log is deleted");
  }

  @Test
  void shouldStopLocalPouchDbAndDeleteItsDataOnCtrlC() throws Exception {
    Matcher started = interruptedWriteRun("CouchSet", POUCHDB);

    assertTrue(Net.deletedWithin(Path.of(started.group(2)), GONE), "its data directory is deleted");
  }

  /**
   * Runs a write simulation against the local server it starts, interrupts it, and checks the server is gone and the
   * previous key file in place.
   *
   * @return the line saying where the server started
   */
  private static Matcher interruptedWriteRun(String simulation, Pattern startedLine) throws Exception {
    Path keyFile = Files.writeString(Files.createDirectories(Path.of("target", "it-keys"))
        .resolve("interrupted-" + System.nanoTime() + ".csv"), PREVIOUS_KEYS);
    GatlingRun.Running run = GatlingRun.start(simulation, Map.of("users", "2", "duration", "60",
        "keyFile", keyFile.toString()), Map.of());
    Matcher started = started(run, startedLine);
    interruptOnceTheLoadFlows(run);

    assertFalse(Net.listens(Integer.parseInt(started.group(1))), "nothing listens on its port any more");
    assertEquals(PREVIOUS_KEYS, Files.readString(keyFile), "an interrupted run leaves the previous key file");
    return started;
  }

  @Test
  void shouldStopLocalPouchDbWhenTheRunStopsOnAnError() throws Exception {
    // No view to query and setup=false: the run stops with one line after starting pouchdb-server.
    GatlingRun.Running run = GatlingRun.start("ViewQuery", Map.of("setup", "false", "database", "no_such_view",
        "rate", "5", "conns", "5"), Map.of());
    Matcher started = started(run, POUCHDB);
    List<ProcessHandle> servers = run.process().descendants().toList();
    GatlingRun.Result result = run.finish(TIMEOUT);

    assertEquals(1, result.exitCode(), result.why());
    assertTrue(result.output().contains("couchbench: stopped: view /no_such_view/_design/todo/_view/list is missing"),
        result.output());
    for (ProcessHandle server : servers) {
      assertTrue(Net.endsWithin(server.pid(), Duration.ofSeconds(10)), server.info().command() + " still runs");
    }
    assertFalse(Net.listens(Integer.parseInt(started.group(1))));
    assertTrue(Net.deletedWithin(Path.of(started.group(2)), GONE), "its data directory is deleted");
  }

  private static Matcher started(GatlingRun.Running run, Pattern line) throws Exception {
    Matcher matcher = line.matcher(run.awaitLine(line.pattern(), TIMEOUT));
    assertTrue(matcher.matches());
    return matcher;
  }

  /** Sends SIGINT, as Ctrl-C does, once Gatling runs the load; checks every process the run started ends. */
  private static void interruptOnceTheLoadFlows(GatlingRun.Running run) throws Exception {
    run.awaitLine("Simulation .* started.*", TIMEOUT);
    long pid = run.process().pid();
    String ignored = Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status")).stream()
        .filter(line -> line.startsWith("SigIgn:")).findFirst().orElseThrow().replaceAll("\\s+", " ");
    // Bit 1 is SIGINT: a JVM started with SIGINT ignored (maven run in the background without job control)
    // keeps ignoring it, and this test cannot stand for Ctrl-C there.
    assertEquals(0, Long.parseLong(ignored.split(" ")[1], 16) & 2, "SIGINT is ignored by the run: " + ignored);
    List<ProcessHandle> started = run.process().descendants().toList();
    assertFalse(started.isEmpty(), "the server and its wrapper run under the JVM");
    assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(pid)).start().waitFor());
    GatlingRun.Result result = run.finish(Duration.ofSeconds(30));

    assertNotEquals(0, result.exitCode(), "interrupted");
    for (ProcessHandle server : started) {
      assertTrue(Net.endsWithin(server.pid(), Duration.ofSeconds(10)), server.info().command() + " still runs");
    }
  }
}
