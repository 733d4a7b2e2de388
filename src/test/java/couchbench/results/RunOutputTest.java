package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import couchbench.startup.Settings;
import io.gatling.javaapi.core.Simulation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The run output against a run folder holding the committed simulation.log, as Gatling leaves it before after(). */
class RunOutputTest {

  /** Stands for a simulation class: Gatling names the run folder after the class. */
  static final class Fixture extends Simulation {}

  @RegisterExtension
  final ResultsRootInTempDir reports = new ResultsRootInTempDir();

  /** A simulation's own figures, as a test keeps them. */
  record Greeting(String text) {}

  /** Keeps the results and figures its page was built from; the page says the greeting. */
  static final class GreetingSummary implements Summary<Greeting> {
    final AtomicReference<Results> results = new AtomicReference<>();
    final AtomicReference<Greeting> figures = new AtomicReference<>();

    @Override
    public Class<Greeting> figuresType() {
      return Greeting.class;
    }

    @Override
    public Greeting merge(List<Greeting> injectors) {
      return injectors.get(0);
    }

    @Override
    public SummaryPage page(Results given, Greeting greeting) {
      results.set(given);
      figures.set(greeting);
      return SummaryPage.titled("t").line(greeting.text());
    }
  }

  @Test
  void shouldWriteSummaryResultsAndHistogramsIntoTheRunFolder() throws IOException {
    Settings settings = Settings.of(Map.of("users", "3"), Map.of());
    settings.intValue("users", 50, 1);
    settings.intValue("duration", 60, 1);
    RunOutput run = RunOutput.of(Fixture.class, settings);
    run.loadStarts();
    Path folder = runFolder(run);
    for (int i = 1; i <= 100; i++) {
      run.memcacheTimings().record("get", true, i * 1000L);
    }
    GreetingSummary summary = new GreetingSummary();

    RunOutput.Written written = run.finish(List.of("memcache 127.0.0.1:1"), summary, new Greeting("hello"));

    assertEquals(new RunOutput.Written(folder, true), written);

    assertEquals(ResultsFile.read(folder), summary.results.get(), "the page is built from the results written");
    assertEquals(new Greeting("hello"), summary.figures.get());
    assertEquals("hello", ResultsFile.read(folder).figures().get("text").asText(), "the figures are in results.json");
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("<p>hello</p>") && html.contains("latency by percentile"), html);
    assertTrue(Files.exists(folder.resolve("latency-by-percentile.png")));
    assertTrue(Files.exists(folder.resolve("latency-by-percentile.csv")));
    assertEquals(folder.getFileName().toString(), Files.readString(folder.resolveSibling(RunFolders.LAST_RUN)),
        "lastRun.txt names the run's folder");
    Results results = ResultsFile.read(folder);
    assertEquals("Fixture", results.run().simulation());
    assertEquals(Map.of("users", "3", "duration", "60", "clientTimes", "true", "injector", "0/1"),
        results.run().parameters(), "every parameter read, defaults included (one injector: 0/1)");
    assertEquals(List.of("memcache 127.0.0.1:1"), results.run().targets());
    assertEquals("3.15.1", results.run().versions().gatling());
    assertFalse(results.run().versions().couchbench().isBlank());
    Results.Entry get = results.requests().stream().filter(e -> e.name().equals("get")).findFirst().orElseThrow();
    assertEquals(Results.CLIENT_CLOCK, get.clock());
    assertEquals(100, get.ok(), "the client's count, not the log's, for a client-timed name");
    assertEquals(50.0, get.latency().p50(), 0.05);
    Results.Entry multiGet = results.requests().stream().filter(e -> e.name().equals("multi-get")).findFirst()
        .orElseThrow();
    assertEquals(Results.GATLING_CLOCK, multiGet.clock());
    assertEquals(RunLog.read(folder).requests().get("multi-get").ok(), multiGet.ok());

    assertEquals(Files.getPosixFilePermissions(folder.resolve("simulation.log")),
        Files.getPosixFilePermissions(folder.resolve(RunOutput.HISTOGRAMS)), "readable as Gatling's own files are");
    Map<String, Histogram> totals = HistogramLog.totals(folder.resolve(RunOutput.HISTOGRAMS));
    assertEquals(100, totals.get("request:get:ok").getTotalCount(), "the client's intervals are in the log");
    assertEquals(multiGet.ok(), totals.get(multiGet.okTag()).getTotalCount(), "and the log's");
  }

  @Test
  void shouldWriteIntoTheFolderGatlingNamedNotTheOneStampedNearestTheLoadStart() throws IOException {
    RunOutput run = RunOutput.of(Fixture.class, Settings.of(Map.of(), Map.of()));
    run.loadStarts();
    // Gatling stamps its folder with its own clock, which may be far from the wall clock (it was stepped) ...
    Path folder = gatlingFolder(run, "fixture-20200101000000000");
    // ... while another run of the same simulation started just now.
    Path another = Files.createDirectories(reports.root().resolve("fixture-" + STAMP.format(Instant.now())));
    Files.copy(SimulationLogTest.FIXTURE.resolve("simulation.log"), another.resolve("simulation.log"));

    RunOutput.Written written = run.finish(List.of(), new GreetingSummary(), new Greeting("hello"));

    assertEquals(new RunOutput.Written(folder, true), written);
    assertTrue(Files.exists(folder.resolve("summary.html")));
    assertTrue(Files.exists(folder.resolve(ResultsFile.NAME)));
    assertFalse(Files.exists(another.resolve("summary.html")), "the other run's folder is left alone");
  }

  @Test
  void shouldWriteTheFiguresWithoutTheRequestsWhenTheLogCannotBeRead() throws IOException {
    RunOutput run = RunOutput.of(Fixture.class, Settings.of(Map.of(), Map.of()));
    run.loadStarts();
    Path folder = runFolder(run);
    Files.write(folder.resolve("simulation.log"), new byte[] {0, 1, 2});
    GreetingSummary summary = new GreetingSummary();

    run.finish(List.of(), summary, new Greeting("hello"));

    assertEquals(List.of(), summary.results.get().requests(), "the page gets results without entries");
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("could not be read") && html.contains("<p>hello</p>"), html);
    Results results = ResultsFile.read(folder);
    assertEquals(List.of(), results.requests());
    assertEquals("hello", results.figures().get("text").asText(), "the simulation's own figures are kept");
    assertTrue(Files.exists(folder.resolve(RunOutput.HISTOGRAMS)));
  }

  @Test
  void shouldWriteIntoAFolderOfItsOwnWhenGatlingsRunIdIsUnknown() throws IOException {
    RunOutput run = RunOutput.of(Fixture.class, Settings.of(Map.of(), Map.of()));
    run.loadStarts();
    run.memcacheTimings().record("get", true, 1000L);
    run.gatlingRunId().unknown("this Gatling keeps its run id elsewhere");

    RunOutput.Written written = run.finish(List.of(), new GreetingSummary(), new Greeting("hello"));

    Path folder = written.folder();
    assertFalse(written.besideGatlingReport());
    assertEquals(reports.root(), folder.getParent());
    assertTrue(folder.getFileName().toString().matches("fixture-couchbench-\\d{17}"), folder.toString());
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("results not beside Gatling&#39;s report (Gatling&#39;s run id could not be read: this"
        + " Gatling keeps its run id elsewhere): written to " + folder.toAbsolutePath().normalize()), html);
    assertTrue(html.contains("<p>hello</p>") && !html.contains("index.html"), "no link to a report not beside it");
    assertEquals("hello", ResultsFile.read(folder).figures().get("text").asText());
    assertEquals(1, HistogramLog.totals(folder.resolve(RunOutput.HISTOGRAMS)).get("request:get:ok").getTotalCount(),
        "the client's times are kept");
    assertEquals(folder.getFileName().toString(), Files.readString(reports.root().resolve(RunFolders.LAST_RUN)));
  }

  @Test
  void shouldWriteIntoAFolderOfItsOwnWhenGatlingWritesItsRunsElsewhere() throws IOException {
    RunOutput run = RunOutput.of(Fixture.class, Settings.of(Map.of(), Map.of()));
    run.loadStarts();
    run.gatlingRunId().named("fixture-20200101000000000"); // Gatling's folder is under another results folder: none here

    RunOutput.Written written = run.finish(List.of(), new GreetingSummary(), new Greeting("hello"));

    assertFalse(written.besideGatlingReport());
    String html = Files.readString(written.folder().resolve("summary.html"));
    assertTrue(html.contains("-Dcouchbench.reports"), html);
  }

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")
      .withZone(ZoneOffset.UTC);

  /** The folder Gatling would create right after before(), with the fixture's log in it, named to the run. */
  private Path runFolder(RunOutput run) throws IOException {
    return gatlingFolder(run, "fixture-" + STAMP.format(Instant.now()));
  }

  /** A run folder of that name, with the fixture's log in it, named to the run as Gatling's run id. */
  private Path gatlingFolder(RunOutput run, String runId) throws IOException {
    Path folder = Files.createDirectories(reports.root().resolve(runId));
    Files.copy(SimulationLogTest.FIXTURE.resolve("simulation.log"), folder.resolve("simulation.log"));
    run.gatlingRunId().named(runId);
    return folder;
  }
}
