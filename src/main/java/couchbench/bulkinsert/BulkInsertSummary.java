package couchbench.bulkinsert;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.RequestTally;
import couchbench.resources.CpuMeter;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The seed's figures from this run: documents per second for every step as a table, and a chart of
 * docs/s against batch size B (log scale), one line per thread count T, like the seed's plot.
 */
public final class BulkInsertSummary {

  private BulkInsertSummary() {}

  /**
   * The summary page of a finished run.
   *
   * @param simulation the simulation's name, for the title
   * @param plan the steps and parameters
   * @param target the server the run wrote to
   * @param server the server's process on this machine, if it is here and could be seen
   * @param tallies what each step did
   * @param requests Gatling's own count of each request name, from the run's simulation.log (empty
   *     when it cannot be read): it also counts the requests that got no reply
   * @param loginRefused whether CouchDB refused the login during the run (CouchHttp.loginWasRefused())
   * @return the page, ready to write beside Gatling's report
   */
  public static SummaryPage page(String simulation, BulkInsertPlan plan, CouchTarget target, Optional<LocalServer> server,
      Map<BulkInsertStep, StepTally> tallies, Optional<Map<String, RequestTally>> requests, boolean loginRefused) {
    Table table =
        Table.of("method", "B", "T", "replies", "failed replies", "failed requests", "docs acknowledged",
            "doc_count", "seconds", "docs/s");
    long failedRequests = 0;
    Map<Integer, List<Number>> batchSizes = new TreeMap<>();
    Map<Integer, List<Number>> rates = new TreeMap<>();
    List<String> disagreements = new ArrayList<>();
    for (Map.Entry<BulkInsertStep, StepTally> entry : tallies.entrySet()) {
      BulkInsertStep step = entry.getKey();
      StepTally tally = entry.getValue();
      Optional<Long> failed = requests.map(byName -> byName.getOrDefault(step.name(), RequestTally.EMPTY).ko());
      failedRequests += failed.orElse(0L);
      table = table.row(step.single() ? "single (POST /db)" : "bulk (_bulk_docs)",
          step.batchSize(), step.threads(), tally.replies(), tally.failedReplies(), failed.orElse(null), tally.acknowledged(),
          tally.serverDocCount() < 0 ? null : tally.serverDocCount(), tally.seconds(),
          tally.docsPerSecond());
      if (tally.serverDocCount() != tally.acknowledged()) {
        disagreements.add(step.name() + ": " + tally.acknowledged() + " acknowledged, doc_count "
            + (tally.serverDocCount() < 0 ? "not read" : tally.serverDocCount()));
      }
      if (!step.single() && tally.replies() > 0) {
        batchSizes.computeIfAbsent(step.threads(), t -> new ArrayList<>()).add(step.batchSize());
        rates.computeIfAbsent(step.threads(), t -> new ArrayList<>()).add(tally.docsPerSecond());
      }
    }
    SummaryPage page =
        SummaryPage.titled(simulation + ": documents created per second")
            .line("Target: " + target.describe() + ".")
            .line("Each step: T virtual users together create at least " + plan.docs()
                + " documents in a fresh database, B per POST /db/_bulk_docs, or one per POST /db"
                + " (single). Documents: " + (plan.docSize() == 0 ? "empty {} as in the seed"
                    : plan.docSize() + " characters of random text") + ".")
            .line("docs/s = documents the server acknowledged / wall time from the step's first"
                + " request to its last reply. doc_count is the database's own count after the step."
                + " Failed replies: replies that were not all stored; failed requests: Gatling's count,"
                + " which adds the requests that got no reply (a timeout, a closed connection).");
    if (failedRequests > 0) {
      page = page.warning(failedRequests + " requests failed: see Gatling's report for the messages.");
    }
    if (requests.isEmpty()) {
      page = page.warning("Gatling's simulation.log could not be read: failed requests are not shown.");
    }
    if (loginRefused) {
      page = page.warning("CouchDB refused the login during the run, which stopped there: "
          + "steps after that are missing or incomplete.");
    }
    for (String disagreement : disagreements) {
      page = page.warning("Counts disagree: " + disagreement);
    }
    LineChart chart =
        LineChart.titled("Documents created per second against batch size")
            .axes("batch size B (documents per _bulk_docs request)", "documents per second")
            .logX();
    for (Map.Entry<Integer, List<Number>> line : batchSizes.entrySet()) {
      chart = chart.series("T=" + line.getKey(), line.getValue(), rates.get(line.getKey()));
    }
    page = page.table("docs per second by step", table);
    page = cpu(page, server, tallies);
    if (!batchSizes.isEmpty()) {
      page = page.chart("docs per second against batch size", chart)
          .chart("time to create the documents", progressChart(tallies));
    }
    return page.link("Gatling's report for this run", "index.html");
  }

  /**
   * The seed's other plot: the time the documents took against their number, one line per step for the batch sizes
   * that are powers of 4 (a line for every step would be 60), bulk steps only.
   */
  private static LineChart progressChart(Map<BulkInsertStep, StepTally> tallies) {
    LineChart chart = LineChart.titled("Time to create the documents against their number (B a power of 4)")
        .axes("documents created", "seconds since the step's start");
    for (Map.Entry<BulkInsertStep, StepTally> entry : tallies.entrySet()) {
      BulkInsertStep step = entry.getKey();
      int b = step.batchSize();
      if (!step.single() && Integer.bitCount(b) == 1 && Integer.numberOfTrailingZeros(b) % 2 == 0) {
        List<StepProgress.Point> points = entry.getValue().progress();
        chart = chart.series("B=" + b + " T=" + step.threads(),
            points.stream().map(StepProgress.Point::documents).toList(),
            points.stream().map(StepProgress.Point::seconds).toList());
      }
    }
    return chart;
  }

  /** What the load generator used beside what the server used, step by step. */
  private static SummaryPage cpu(SummaryPage page, Optional<LocalServer> server, Map<BulkInsertStep, StepTally> tallies) {
    Table table = Table.of("method", "B", "T", "client CPU (s)", "client user (s)", "client system (s)",
        "client JIT (s)", "client GC (s)", "server CPU (s)", "client / server");
    double client = 0;
    double served = 0;
    for (Map.Entry<BulkInsertStep, StepTally> entry : tallies.entrySet()) {
      BulkInsertStep step = entry.getKey();
      Optional<CpuMeter.Reading> used = entry.getValue().cpu();
      if (used.isEmpty()) {
        continue;
      }
      CpuMeter.Reading cpu = used.get();
      Optional<Double> share = cpu.client().flatMap(c -> cpu.server().filter(s -> s > 0).map(s -> c / s));
      table = table.row(step.single() ? "single (POST /db)" : "bulk (_bulk_docs)", step.batchSize(), step.threads(),
          cpu.client().orElse(null), cpu.user().orElse(null), cpu.system().orElse(null), cpu.jit().orElse(null),
          cpu.gc().orElse(null), cpu.server().orElse(null), share.orElse(null));
      client += cpu.client().orElse(0.0);
      served += cpu.server().orElse(0.0);
    }
    String totals = String.format(Locale.ROOT, " In all steps: client %.2f s, server %.2f s.", client, served);
    page = page.line("CPU seconds while each step ran, of the load generator (client: this JVM; of it, its JIT"
        + " compiler threads, and its garbage collector threads with the VM thread that runs their pauses) and of"
        + server.map(s -> " the server, " + s.name() + " (pid " + s.pid() + "). On one machine they share the"
                + " cores: what the client uses, the server cannot." + totals)
            .orElse(" the server: n/a, it is not on this machine, or its process could not be seen."));
    return page.table("cpu by step", table);
  }
}
