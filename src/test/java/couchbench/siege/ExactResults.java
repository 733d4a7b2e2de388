package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.OfflinePage;
import couchbench.results.HistogramLog;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.results.RunOutput;
import java.nio.file.Path;

/** What a memcache run's results.json and histograms.hlog must say about one request name. */
final class ExactResults {

  private ExactResults() {}

  /**
   * Checks the entry's counts are Gatling's report's, its times in microseconds from couchbench's client, and its
   * histogram log holds every OK request.
   */
  static Results.Entry assertClientTimed(Path runFolder, String name, GatlingReport.Counts reported) {
    Results results = ResultsFile.read(runFolder);
    Results.Entry entry = results.requests().stream().filter(e -> e.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no entry " + name + " in " + results.requests()));
    assertEquals(reported.ok(), entry.ok(), name + ": OK = Gatling's report");
    assertEquals(reported.ko(), entry.ko(), name + ": KO = Gatling's report");
    assertEquals(Results.CLIENT_CLOCK, entry.clock());
    assertEquals("us", entry.latency().unit());
    assertTrue(entry.latency().p50() > 0 && entry.latency().p50() < 1_000_000, "p50 in microseconds, above 0: "
        + entry.latency());
    assertTrue(entry.latency().p50() <= entry.latency().p99() && entry.latency().p99() <= entry.latency().max(),
        entry.latency().toString());
    assertEquals(entry.ok(), HistogramLog.totals(runFolder.resolve(RunOutput.HISTOGRAMS)).get(entry.okTag())
        .getTotalCount(), name + ": the histogram log holds every OK request");
    assertTrue(OfflinePage.fetchesNothing(runFolder.resolve("summary.html")), "summary.html opens offline");
    return entry;
  }
}
