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
import java.time.ZonedDateTime;
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
    Path folder = runFolder();
    for (int i = 1; i <= 100; i++) {
      run.memcacheTimings().record("get", true, i * 1000L);
    }
    GreetingSummary summary = new GreetingSummary();

    run.finish(List.of("memcache 127.0.0.1:1"), summary, new Greeting("hello"));

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
  void shouldWriteNoResultsWhenTheLogCannotBeRead() throws IOException {
    RunOutput run = RunOutput.of(Fixture.class, Settings.of(Map.of(), Map.of()));
    run.loadStarts();
    Path folder = runFolder();
    Files.write(folder.resolve("simulation.log"), new byte[] {0, 1, 2});
    GreetingSummary summary = new GreetingSummary();

    run.finish(List.of(), summary, new Greeting("hello"));

    assertEquals(List.of(), summary.results.get().requests(), "the page gets results without entries");
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("could not be read") && html.contains("<p>hello</p>"), html);
    assertFalse(Files.exists(folder.resolve(ResultsFile.NAME)));
    assertFalse(Files.exists(folder.resolve(RunOutput.HISTOGRAMS)));
  }

  @Test
  void shouldWriteNothingOutsideGatling() throws IOException {
    RunOutput run = RunOutput.of(Fixture.class, Settings.of(Map.of(), Map.of()));
    run.loadStarts();

    run.finish(List.of(), new GreetingSummary(), new Greeting("hello"));

    try (var files = Files.list(reports.root())) {
      assertEquals(0, files.count());
    }
  }

  /** The folder Gatling would create right after before(), with the fixture's log in it. */
  private Path runFolder() throws IOException {
    String stamp = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS").format(ZonedDateTime.now(ZoneOffset.UTC));
    Path folder = Files.createDirectories(reports.root().resolve("fixture-" + stamp));
    Files.copy(SimulationLogTest.FIXTURE.resolve("simulation.log"), folder.resolve("simulation.log"));
    return folder;
  }
}
