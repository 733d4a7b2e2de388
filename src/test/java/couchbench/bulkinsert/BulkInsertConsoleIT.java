package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What a person sees of a BulkInsert run: couchbench's lines by default, Gatling's console with -Dconsole=gatling. */
class BulkInsertConsoleIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

  /** A line of Gatling's console data writer: one per population, waiting ones too, every 5 s. */
  private static final Pattern POPULATION_COUNTS =
      Pattern.compile("\\s*waiting:\\s+\\d+ / active:\\s+\\d+\\s+/ done:\\s+\\d+\\s*");

  private static final List<String> STEPS =
      List.of("single T=1", "bulk B=1 T=1", "bulk B=16 T=1", "single T=2", "bulk B=1 T=2", "bulk B=16 T=2");

  private static PouchDbServer couch;

  @BeforeAll
  static void startCouch() {
    couch = PouchDbServer.start();
  }

  @AfterAll
  static void stopCouch() {
    couch.close();
  }

  @Test
  void shouldSayEachStepOnceTheProgressAndTheSummaryLastWithoutGatlingsPopulations() throws Exception {
    GatlingRun.Result run = run(Map.of("batchSizes", "1,16", "threads", "1,2", "docs", "64", "warmup", "20",
        "stepSeconds", "2"));

    assertEquals(0, run.exitCode(), run.why());
    List<String> lines = run.output().lines().toList();
    assertTrue(lines.stream().noneMatch(line -> POPULATION_COUNTS.matcher(line).matches()),
        "no population block of Gatling's console:\n" + run.output());
    for (int i = 0; i < STEPS.size(); i++) {
      String step = STEPS.get(i);
      List<String> naming = lines.stream().filter(line -> line.contains(step)).toList();
      assertEquals(1, naming.size(), step + " is named on one line:\n" + run.output());
      assertTrue(naming.get(0).matches("couchbench: step " + (i + 1) + "/6: " + Pattern.quote(step)
          + " \\(at least \\d+ documents and 2 s\\) -- so far [\\d,]+ writes, [\\d,]+/s, 0 failed; about .+ left"),
          naming.get(0));
    }
    assertTrue(lines.stream().anyMatch(line -> line.startsWith("couchbench: warm-up: ")), run.output());
    Path folder = run.requireRunFolder();
    assertEquals("couchbench: summary: " + folder.resolve("summary.html"), lines.get(lines.size() - 1),
        "the summary's path is the last line, after Gatling's figures and its report's path");
    assertTrue(lines.stream().anyMatch(line -> line.contains("Global Information")), "Gatling's global figures stay");
    assertTrue(lines.stream().anyMatch(line -> line.contains(folder.resolve("index.html").toString())),
        "Gatling's report's path stays:\n" + run.output());
    // 6 steps: Gatling's start and end (some 35 lines), couchbench's settings, warm-up, steps and results lines.
    assertTrue(lines.size() < 60, lines.size() + " lines:\n" + run.output());
  }

  @Test
  void shouldSayTheProgressOnALineOfItsOwnWhenNoStepStartsFor10Seconds() throws Exception {
    GatlingRun.Result run = run(Map.of("batchSizes", "1", "threads", "1", "single", "false", "docs", "64",
        "warmup", "0", "stepSeconds", "22"));

    assertEquals(0, run.exitCode(), run.why());
    List<String> progress = run.output().lines().filter(line -> line.startsWith("couchbench: progress: ")).toList();
    assertFalse(progress.isEmpty(), "a 22 s step, and no other line, gets a progress line:\n" + run.output());
    assertTrue(progress.size() <= 2, "at most one every 10 s:\n" + run.output());
    for (String line : progress) {
      assertTrue(line.matches("couchbench: progress: so far [\\d,]+ writes, [\\d,]+/s, 0 failed; about .+ left"),
          line);
    }
  }

  @Test
  void shouldBringGatlingsConsoleBackWithConsoleGatling() throws Exception {
    GatlingRun.Result run = run(Map.of("batchSizes", "16", "threads", "1", "single", "false", "docs", "64",
        "warmup", "0", "stepSeconds", "6", "console", "gatling"));

    assertEquals(0, run.exitCode(), run.why());
    List<String> lines = run.output().lines().toList();
    assertTrue(lines.stream().anyMatch(line -> POPULATION_COUNTS.matcher(line).matches()),
        "Gatling's population blocks:\n" + run.output());
    assertTrue(lines.stream().anyMatch(line -> line.startsWith("---- bulk B=16 T=1 ")), run.output());
    assertFalse(run.output().contains("Gatling's console is off"), run.output());
  }

  @Test
  void shouldStopWithOneLineOnAnUnknownConsole() throws Exception {
    GatlingRun.Result run = run(Map.of("console", "loud"));

    assertEquals(1, run.exitCode(), run.why());
    assertTrue(run.output().contains("couchbench: stopped: -Dconsole=loud is not couchbench or gatling"),
        run.output());
    assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
  }

  private static GatlingRun.Result run(Map<String, String> properties) throws Exception {
    Map<String, String> all = new HashMap<>(properties);
    all.put("couchdb.url", couch.url());
    return GatlingRun.run("BulkInsert", all, RUN_TIMEOUT);
  }
}
