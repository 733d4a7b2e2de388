package couchbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.attachment.AttachmentFigures;
import couchbench.attachment.AttachmentMethod;
import couchbench.attachment.UploadTally;
import couchbench.changes.ChangesFigures;
import couchbench.query.QueryFigures;
import couchbench.replication.ReplicateFigures;
import couchbench.requests.CouchRequests;
import couchbench.requests.MemcacheRequests;
import couchbench.results.Histograms;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.sync.SyncFigures;
import couchbench.couchdb.DesignDocument;
import couchbench.viewquery.ConnFigures;
import couchbench.viewquery.IndexBuild;
import couchbench.viewquery.ViewQueryFigures;
import couchbench.workloads.WorkloadFigures;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each simulation's headline, read from its own figures record as results.json holds it (written and read back), so
 * that a renamed field of a simulation's figures fails here rather than leave History drawing the requests instead.
 */
class HeadlinesTest {

  private static final String START = "2026-12-01T10:00:00Z";

  @TempDir
  Path root;

  @Test
  void shouldReadWorkloadsOperationsASecondPerSystem() {
    String none = Histograms.encode(new Histogram(3));
    WorkloadFigures figures = new WorkloadFigures("a", Map.of(), 0, List.of(new WorkloadFigures.SystemFigures(
        "couchdb", 10, 0, 2.0, List.of(), List.of(), List.of(
            new WorkloadFigures.OperationFigures("read", 150, 0, 0, 0, 0, 0, none, none),
            new WorkloadFigures.OperationFigures("update", 40, 6, 2, 2, 0, 0, none, none)), List.of(), null)), "");

    assertEquals(Map.of("couchdb", 100.0), medians("Workload", 0, figures));
  }

  @Test
  void shouldReadEachSiegeHalfsTransactionsASecondAndCouchVsMemcachesFourOverTheirRounds() {
    assertEquals(Map.of(MemcacheRequests.SET, 100.0), medians(siege("MemSet", MemcacheRequests.SET), 0));
    assertEquals(Map.of(MemcacheRequests.GET, 100.0), medians(siege("MemGet", MemcacheRequests.GET,
        MemcacheRequests.GET_EXPIRED), 0));
    assertEquals(Map.of(CouchRequests.SET, 100.0), medians(siege("CouchSet", CouchRequests.SET), 0));
    assertEquals(Map.of(CouchRequests.GET, 100.0), medians(siege("CouchGet", CouchRequests.GET), 0));
    assertEquals(Map.of(MemcacheRequests.SET, 100.0, CouchRequests.SET, 100.0, MemcacheRequests.GET, 100.0,
        CouchRequests.GET, 100.0), medians(siege("CouchVsMemcache", MemcacheRequests.SET, CouchRequests.SET,
            MemcacheRequests.GET, CouchRequests.GET, MemcacheRequests.RECORD_WRITE), 0));
  }

  @Test
  void shouldReadViewQuerysReplyRateAndMeanReplyTime() {
    ConnFigures round = new ConnFigures(2, 4, 0, 0, new long[6], 2, 0.5, 1_000L, 3_000L, new long[] {1, 2},
        new long[] {1000, 2000, 3000, 6000}, new long[4], new long[] {1100, 1200, 1300, 1400});
    ViewQueryFigures figures = new ViewQueryFigures("http://127.0.0.1:5984", null, false, List.of(round));

    assertEquals(Map.of("replies", 2.0), medians("ViewQuery", 0, figures), "4 replies in 2 s");
    assertEquals(Map.of("reply time", 3000.0), medians("ViewQuery", 1, figures), "in µs");
  }

  @Test
  void shouldReadViewQuerysBuildTimeOnlyWhereTheRunBuiltTheView() {
    ConnFigures round = new ConnFigures(2, 4, 0, 0, new long[6], 2, 0.5, 1_000L, 3_000L, new long[] {1, 2},
        new long[] {1000, 2000, 3000, 6000}, new long[4], new long[] {1100, 1200, 1300, 1400});
    ViewQueryFigures built = new ViewQueryFigures("http://127.0.0.1:5984", new IndexBuild(2_500, 1002, 900,
        DesignDocument.Outcome.CREATED, false), false, List.of(round));
    ViewQueryFigures found = new ViewQueryFigures("http://127.0.0.1:5984", new IndexBuild(3, 1002, 900,
        DesignDocument.Outcome.UNCHANGED, false), false, List.of(round));

    assertEquals(Map.of("view build", 2_500_000.0), medians("ViewQuery", 2, built), "in µs");
    assertEquals(Map.of(), medians("ViewQuery", 2, found), "an index already there is no build");
  }

  @Test
  void shouldReadAttachmentUploadsMedianTimePerMethodAndSize() {
    AttachmentFigures figures = new AttachmentFigures(List.of("db"), false, List.of(
        new AttachmentFigures.Measured(new UploadTally.Key(AttachmentMethod.RAW, 3, 1),
            new UploadTally.Figures(3, List.of(0.001, 0.003, 0.002), Map.of())),
        new AttachmentFigures.Measured(new UploadTally.Key(AttachmentMethod.BULK, 6, 1),
            new UploadTally.Figures(1, List.of(0.5), Map.of()))));

    assertEquals(Map.of("raw 10^3", 2000.0, "bulk 10^6", 500_000.0), medians("AttachmentUpload", 0, figures));
    assertEquals(List.of("raw", "bulk"), Headlines.of("AttachmentUpload").get(0).read(GateRuns.run("AttachmentUpload",
        Map.of(), START, List.of(1.0), 1).withFigures(new ObjectMapper().valueToTree(figures))).stream()
        .map(Headline.Reading::chart).toList(), "a chart per method");
  }

  @Test
  void shouldReadQuerysIndexBuildTimes() {
    QueryFigures figures = new QueryFigures("orders", 1.0, List.of(new QueryFigures.IndexBuild("orders", "global",
        "view", "by-owner", 2.5, 3, 13, 100, 1000, 0.5, 1, 2)), List.of(), List.of());

    assertEquals(Map.of("view _design/by-owner (orders)", 2_500_000.0), medians("Query", 0, figures));
  }

  @Test
  void shouldReadChangesNotificationLatencyPerFeed() {
    String lag = Histograms.encode(histogram(10_000, 20_000, 30_000));
    ChangesFigures figures = new ChangesFigures("writes", null, List.of(new ChangesFigures.FeedFigures("continuous",
        1, 1, 1, 1, 0, 0, null, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, lag, lag)), null, null, 3);

    Map<String, Double> read = medians("Changes", 0, figures);
    assertEquals(List.of("continuous p50", "continuous p99"), List.copyOf(read.keySet()));
    assertEquals(20_000, read.get("continuous p50"), 20);
    assertEquals(30_000, read.get("continuous p99"), 30);
  }

  @Test
  void shouldReadReplicatesOneShotRateOrItsContinuousLag() {
    ReplicateFigures oneShot = new ReplicateFigures("oneshot", List.of(new ReplicateFigures.OneShot(1, 2.0, 1000,
        "")), List.of(), 0, 0, 0, Histograms.encode(new Histogram(3)), Histograms.encode(new Histogram(3)), List.of(),
        List.of(), List.of());
    ReplicateFigures continuous = new ReplicateFigures("continuous", List.of(), List.of(), 3, 0, 0,
        Histograms.encode(histogram(1000, 2000, 3000)), Histograms.encode(histogram(1000, 2000, 3000)), List.of(),
        List.of(), List.of());

    assertEquals(Map.of("job 1", 500.0), medians("Replicate", 0, oneShot));
    assertEquals(Map.of(), medians("Replicate", 1, oneShot), "an empty lag is none");
    assertEquals(Map.of(), medians("Replicate", 0, continuous));
    assertEquals(2000, medians("Replicate", 1, continuous).get("p50"), 2);
  }

  @Test
  void shouldReadSyncsTimeUntilAWriteReachesTheOthers() {
    SyncFigures figures = new SyncFigures("sync", 1, 0, 1, 1, "_bulk_get", Histograms.encode(histogram(5000)), 0, 0,
        0, 0, 1, 0, 0, 2, 2, "");

    assertEquals(5000, medians("Sync", 0, figures).get("p99"), 5);
  }

  @Test
  void shouldReadAnUnknownSimulationByItsRequestsRates() {
    Results run = GateRuns.run("NotASimulation", Map.of(), START, List.of(1.0), 250);

    assertEquals(List.of(Headlines.REQUESTS_A_SECOND), Headlines.of("NotASimulation"));
    assertEquals(Map.of("memcache get", 250.0), medians(run, 0));
  }

  // The headline's medians by series, read from the run written to a results.json and read back.
  private Map<String, Double> medians(String simulation, int headline, Object figures) {
    return medians(GateRuns.run(simulation, Map.of(), START, List.of(1.0), 1)
        .withFigures(new ObjectMapper().valueToTree(figures)), headline);
  }

  private Map<String, Double> medians(Results run, int headline) {
    Results read = ResultsFile.read(GateRuns.write(root, "run", run));
    Map<String, Double> medians = new LinkedHashMap<>();
    Headlines.of(read.run().simulation()).get(headline).read(read)
        .forEach(reading -> medians.put(reading.series(), reading.value().median()));
    return medians;
  }

  // A run of two rounds, each request 1,000 OK in 10 s in round 1 and 1,000 in 10 s in round 2; a warm-up beside.
  private static Results siege(String simulation, String... requests) {
    List<Results.Entry> entries = new ArrayList<>();
    for (int round = 1; round <= 2; round++) {
      for (String request : requests) {
        String name = request + " round " + round;
        entries.add(new Results.Entry(name, "request", Results.CLIENT_CLOCK, false, 1000, 1000, 0, Map.of(), 90,
            new Results.Latency("us", 1.0, 1, 1, 1, 1, 1, 1, 1), "ok", "ko", "2026-12-01T10:00:00Z",
            "2026-12-01T10:00:10Z"));
      }
    }
    entries.add(new Results.Entry("warm-up " + requests[0], "request", Results.CLIENT_CLOCK, true, 5, 5, 0, Map.of(),
        1, new Results.Latency("us", 1.0, 1, 1, 1, 1, 1, 1, 1), "ok:w", "ko:w", START, "2026-12-01T10:00:01Z"));
    Results run = GateRuns.run(simulation, Map.of("rounds", "2"), START, List.of(1.0), 1);
    return new Results(run.schema(), run.run(), entries, Map.of(), List.of(), List.of(), null);
  }

  private static Histogram histogram(long... micros) {
    Histogram histogram = new Histogram(3);
    for (long value : micros) {
      histogram.recordValue(value);
    }
    return histogram;
  }
}
