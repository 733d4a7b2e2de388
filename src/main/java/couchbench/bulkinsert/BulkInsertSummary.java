package couchbench.bulkinsert;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.resources.CpuMeter;
import couchbench.results.RequestTally;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import couchbench.rounds.StepRule;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The seed's figures from this run: documents per second for every step as a table, and a chart of
 * docs/s against batch size B (log scale), one line per thread count T, like the seed's plot. With several rounds,
 * each step's figure is the median of its rounds with their range, beside a table of the rounds themselves.
 */
public final class BulkInsertSummary {

  /** At most this many steps are named in a warning; the rest are counted. */
  private static final int MOST_NAMED = 8;

  private BulkInsertSummary() {}

  /**
   * The summary page of a finished run.
   *
   * @param simulation the simulation's name, for the title
   * @param plan the steps and parameters
   * @param target the server the run wrote to
   * @param server the server's process on this machine, if it is here and could be seen
   * @param tallies what each step did, every round's, in the order they ran
   * @param requests Gatling's own count of each request name, from the run's simulation.log (empty
   *     when it cannot be read): it also counts the requests that got no reply
   * @param loginRefused whether CouchDB refused the login during the run (CouchHttp.loginWasRefused())
   * @return the page, ready to write beside Gatling's report
   */
  public static SummaryPage page(String simulation, BulkInsertPlan plan, CouchTarget target, Optional<LocalServer> server,
      Map<BulkInsertStep, StepTally> tallies, Optional<Map<String, RequestTally>> requests, boolean loginRefused) {
    Rounds rounds = plan.rounds();
    Table table = Table.of(columns(rounds, "method", "B", "T", "replies", "failed replies", "failed requests",
        "docs sent", "docs acknowledged", "doc_count", "seconds", "docs/s"));
    long failedRequests = 0;
    List<String> disagreements = new ArrayList<>();
    List<String> shortSteps = new ArrayList<>();
    for (Map.Entry<BulkInsertStep, StepTally> entry : tallies.entrySet()) {
      BulkInsertStep step = entry.getKey();
      StepTally tally = entry.getValue();
      String name = plan.name(step);
      Optional<Long> failed = requests.map(byName -> byName.getOrDefault(name, RequestTally.EMPTY).ko());
      failedRequests += failed.orElse(0L);
      table = table.row(cells(rounds, step, method(step), step.batchSize(), step.threads(), tally.replies(),
          tally.failedReplies(), failed.orElse(null), tally.sent(), tally.acknowledged(),
          tally.serverDocCount() < 0 ? null : tally.serverDocCount(), tally.seconds(), tally.docsPerSecond()));
      if (tally.serverDocCount() != tally.acknowledged()) {
        disagreements.add(name + ": " + tally.acknowledged() + " acknowledged, doc_count "
            + (tally.serverDocCount() < 0 ? "not read" : tally.serverDocCount()));
      }
      double repliesPerUser = (double) tally.replies() / step.threads();
      if (tally.replies() > 0 && StepRule.restsOnLess(tally.seconds(), repliesPerUser)) {
        shortSteps.add(String.format(Locale.ROOT, "%s (%.2f s, %d replies to %d users)", name, tally.seconds(),
            tally.replies(), step.threads()));
      }
    }
    SummaryPage page =
        SummaryPage.titled(simulation + ": documents created per second")
            .line("Target: " + target.describe() + ".")
            .line("Each step: T virtual users together create at least " + plan.docs()
                + " documents in a fresh database, B per POST /db/_bulk_docs, or one per POST /db"
                + " (single). Documents: " + (plan.docSize() == 0 ? "empty {} as in the seed"
                    : plan.docSize() + " characters of random text") + ".")
            .line(plan.length().describe())
            .line("Rounds: " + rounds.describe() + (rounds.repeated() ? "; each round runs the whole sweep, in"
                + " databases of its own, and the time chart shows round 1." : "."))
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
    if (!shortSteps.isEmpty()) {
      page = page.warning(shortSteps.size() + " steps rest on fewer than " + StepRule.SECONDS
          + " s of load or " + StepRule.REQUESTS_PER_USER + " requests per user, too little for their docs/s to be"
          + " more than noise (-DstepSeconds, -DstepRequests, -Ddocs set below the rule): " + named(shortSteps) + ".");
    }
    Map<String, List<Map.Entry<BulkInsertStep, StepTally>>> byStep = byStep(tallies);
    if (rounds.repeated()) {
      page = page.table("docs per second by step", medians(byStep))
          .table("docs per second by step and round", table);
    } else {
      page = page.table("docs per second by step", table);
    }
    page = cpu(page, rounds, server, tallies);
    Optional<LineChart> chart = rateChart(rounds, byStep);
    if (chart.isPresent()) {
      page = page.chart("docs per second against batch size", chart.get())
          .chart("time to create the documents", progressChart(rounds, tallies));
    }
    return page.link("Gatling's report for this run", "index.html");
  }

  /** Each step's rounds, in the order the steps first ran. */
  private static Map<String, List<Map.Entry<BulkInsertStep, StepTally>>> byStep(
      Map<BulkInsertStep, StepTally> tallies) {
    Map<String, List<Map.Entry<BulkInsertStep, StepTally>>> byStep = new LinkedHashMap<>();
    tallies.entrySet()
        .forEach(entry -> byStep.computeIfAbsent(entry.getKey().name(), n -> new ArrayList<>()).add(entry));
    return byStep;
  }

  /** The rounds that measured something: a round with no reply (a stopped run) has no figure, not a zero. */
  private static List<StepTally> measured(List<Map.Entry<BulkInsertStep, StepTally>> rounds) {
    return rounds.stream().map(Map.Entry::getValue).filter(tally -> tally.replies() > 0).toList();
  }

  /** One row per step: its docs/s as the median of the rounds that measured it, with their range. */
  private static Table medians(Map<String, List<Map.Entry<BulkInsertStep, StepTally>>> byStep) {
    Table table = Table.of("method", "B", "T", "rounds", "docs acknowledged", "seconds", "docs/s", "min", "max");
    for (List<Map.Entry<BulkInsertStep, StepTally>> rounds : byStep.values()) {
      BulkInsertStep step = rounds.get(0).getKey();
      List<StepTally> measured = measured(rounds);
      if (measured.isEmpty()) {
        table = table.row(method(step), step.batchSize(), step.threads(), 0, null, null, null, null, null);
        continue;
      }
      Spread rate = Spread.of(measured.stream().map(StepTally::docsPerSecond).toList());
      table = table.row(method(step), step.batchSize(), step.threads(), measured.size(),
          Spread.of(measured.stream().map(StepTally::acknowledged).toList()).median(),
          Spread.of(measured.stream().map(StepTally::seconds).toList()).median(),
          rate.median(), rate.min(), rate.max());
    }
    return table;
  }

  /**
   * The seed's plot: docs/s against B, one line per T, bulk steps only; with rounds, medians with their range. Empty
   * when no bulk step measured anything.
   */
  private static Optional<LineChart> rateChart(
      Rounds rounds, Map<String, List<Map.Entry<BulkInsertStep, StepTally>>> byStep) {
    Map<Integer, List<Number>> batchSizes = new TreeMap<>();
    Map<Integer, List<Spread>> rates = new TreeMap<>();
    for (List<Map.Entry<BulkInsertStep, StepTally>> steps : byStep.values()) {
      BulkInsertStep step = steps.get(0).getKey();
      List<StepTally> measured = measured(steps);
      if (!step.single() && !measured.isEmpty()) {
        batchSizes.computeIfAbsent(step.threads(), t -> new ArrayList<>()).add(step.batchSize());
        rates.computeIfAbsent(step.threads(), t -> new ArrayList<>())
            .add(Spread.of(measured.stream().map(StepTally::docsPerSecond).toList()));
      }
    }
    LineChart chart =
        LineChart.titled("Documents created per second against batch size"
                + (rounds.repeated() ? " (median of " + rounds.count() + " rounds, bars: their range)" : ""))
            .axes("batch size B (documents per _bulk_docs request)", "documents per second")
            .logX();
    for (Map.Entry<Integer, List<Number>> line : batchSizes.entrySet()) {
      String name = "T=" + line.getKey();
      List<Spread> ys = rates.get(line.getKey());
      chart = rounds.repeated() ? chart.spreadSeries(name, line.getValue(), ys)
          : chart.series(name, line.getValue(), ys.stream().map(Spread::median).toList());
    }
    return batchSizes.isEmpty() ? Optional.empty() : Optional.of(chart);
  }

  /**
   * The seed's other plot: the time the documents took against their number, one line per step for the batch sizes
   * that are powers of 4 (a line for every step would be 60), bulk steps only; with rounds, round 1's.
   */
  private static LineChart progressChart(Rounds rounds, Map<BulkInsertStep, StepTally> tallies) {
    LineChart chart = LineChart.titled("Time to create the documents against their number (B a power of 4"
            + (rounds.repeated() ? ", round 1 of " + rounds.count() : "") + ")")
        .axes("documents created", "seconds since the step's start");
    for (Map.Entry<BulkInsertStep, StepTally> entry : tallies.entrySet()) {
      BulkInsertStep step = entry.getKey();
      int b = step.batchSize();
      boolean powerOf4 = Integer.bitCount(b) == 1 && Integer.numberOfTrailingZeros(b) % 2 == 0;
      if (step.round() == 1 && !step.single() && powerOf4) {
        List<StepProgress.Point> points = entry.getValue().progress();
        chart = chart.series("B=" + b + " T=" + step.threads(),
            points.stream().map(StepProgress.Point::documents).toList(),
            points.stream().map(StepProgress.Point::seconds).toList());
      }
    }
    return chart;
  }

  /** What the load generator used beside what the server used, step by step (and round by round). */
  private static SummaryPage cpu(SummaryPage page, Rounds rounds, Optional<LocalServer> server,
      Map<BulkInsertStep, StepTally> tallies) {
    Table table = Table.of(columns(rounds, "method", "B", "T", "client CPU (s)", "client user (s)",
        "client system (s)", "client JIT (s)", "client GC (s)", "server CPU (s)", "client / server"));
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
      table = table.row(cells(rounds, step, method(step), step.batchSize(), step.threads(),
          cpu.client().orElse(null), cpu.user().orElse(null), cpu.system().orElse(null), cpu.jit().orElse(null),
          cpu.gc().orElse(null), cpu.server().orElse(null), share.orElse(null)));
      client += cpu.client().orElse(0.0);
      served += cpu.server().orElse(0.0);
    }
    String totals = String.format(Locale.ROOT, " In all steps%s: client %.2f s, server %.2f s.",
        rounds.repeated() ? " of all rounds" : "", client, served);
    page = page.line("CPU seconds while each step ran" + (rounds.repeated() ? ", round by round," : "")
        + " of the load generator (client: this JVM; of it, its JIT"
        + " compiler threads, and its garbage collector threads with the VM thread that runs their pauses) and of"
        + server.map(s -> " the server, " + s.name() + " (pid " + s.pid() + "). On one machine they share the"
                + " cores: what the client uses, the server cannot." + totals)
            .orElse(" the server: n/a, it is not on this machine, or its process could not be seen."));
    return page.table("cpu by step", table);
  }

  private static String method(BulkInsertStep step) {
    return step.single() ? "single (POST /db)" : "bulk (_bulk_docs)";
  }

  /** A table's columns, after a "round" column when there are several rounds. */
  private static String[] columns(Rounds rounds, String... columns) {
    return rounds.repeated() ? Stream.concat(Stream.of("round"), Arrays.stream(columns)).toArray(String[]::new)
        : columns;
  }

  /** A row's cells, after the step's round when there are several rounds. */
  private static Object[] cells(Rounds rounds, BulkInsertStep step, Object... cells) {
    return rounds.repeated() ? Stream.concat(Stream.of(step.round()), Arrays.stream(cells)).toArray() : cells;
  }

  private static String named(List<String> steps) {
    String named = String.join(", ", steps.subList(0, Math.min(MOST_NAMED, steps.size())));
    return steps.size() > MOST_NAMED ? named + " and " + (steps.size() - MOST_NAMED) + " more" : named;
  }
}
