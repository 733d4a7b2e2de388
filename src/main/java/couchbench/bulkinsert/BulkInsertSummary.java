package couchbench.bulkinsert;

import couchbench.report.Chart;
import couchbench.report.LineChart;
import couchbench.report.Subset;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.ResultsException;
import couchbench.results.Summary;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import couchbench.rounds.StepRule;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The seed's figures from this run: documents per second for every step as a table, and a chart of
 * docs/s against batch size B (log scale), one line per thread count T, like the seed's plot. With several rounds,
 * each step's figure is the median of its rounds with their range, beside a table of the rounds themselves. Built
 * from results.json alone (the entries and {@link BulkInsertFigures}), for one injector's run and for the merged run
 * of several, whose figures the page says how they were added up.
 */
public final class BulkInsertSummary implements Summary<BulkInsertFigures> {

  /** At most this many steps are named in a warning; the rest are counted. */
  private static final int MOST_NAMED = 8;

  private final BulkInsertPlan plan;

  private BulkInsertSummary(BulkInsertPlan plan) {
    this.plan = plan;
  }

  /**
   * @param plan the steps and parameters: the run's own, or for a merged run, the plan its parameters make (less
   *     -Dinjector: the whole run's documents)
   * @return the summary of a run of that plan
   */
  public static BulkInsertSummary of(BulkInsertPlan plan) {
    return new BulkInsertSummary(plan);
  }

  @Override
  public Class<BulkInsertFigures> figuresType() {
    return BulkInsertFigures.class;
  }

  @Override
  public BulkInsertFigures merge(List<BulkInsertFigures> injectors) {
    return BulkInsertFigures.merged(injectors);
  }

  /**
   * The summary page of a finished run.
   *
   * @param results the run's results: Gatling's count of each step's requests, with their failures, comes from
   *     them (it also counts the requests that got no reply); without entries when simulation.log could not be read
   * @param figures what each step's tally counted, every round's, in the order they ran
   * @return the page, ready to write beside Gatling's report
   */
  @Override
  public SummaryPage page(Results results, BulkInsertFigures figures) {
    Rounds rounds = plan.rounds();
    int injectors = results.run().injectorCount();
    Map<BulkInsertStep, BulkInsertFigures.Step> steps = steps(figures);
    Map<String, Results.Entry> entries = results.requests().stream().filter(entry -> entry.kind().equals("request"))
        .collect(Collectors.toMap(Results.Entry::name, entry -> entry, (a, b) -> a));
    boolean logRead = !results.requests().isEmpty();
    Table table = Table.of(columns(rounds, "method", "B", "T", "replies", "failed replies", "failed requests",
        "docs sent", "docs acknowledged", "doc_count", "seconds", "docs/s"));
    long failedRequests = 0;
    List<String> failures = new ArrayList<>();
    List<String> disagreements = new ArrayList<>();
    List<String> shortSteps = new ArrayList<>();
    for (Map.Entry<BulkInsertStep, BulkInsertFigures.Step> entry : steps.entrySet()) {
      BulkInsertStep step = entry.getKey();
      BulkInsertFigures.Step ran = entry.getValue();
      String name = ran.name();
      Optional<Results.Entry> requests = Optional.ofNullable(entries.get(name));
      Long failed = logRead ? requests.map(Results.Entry::ko).orElse(0L) : null;
      if (failed != null && failed > 0) {
        failedRequests += failed;
        failures.add(name + " (" + requests.get().failures().entrySet().stream()
            .map(failure -> failure.getValue() + " \"" + failure.getKey() + "\"").collect(Collectors.joining(", "))
            + ")");
      }
      table = table.row(cells(rounds, step, method(step), step.batchSize(), step.threads(), ran.replies(),
          ran.failedReplies(), failed, ran.sent(), ran.acknowledged(),
          ran.docCount() == BulkInsertFigures.NOT_READ ? null : ran.docCount(), ran.seconds(), ran.docsPerSecond()));
      if (ran.docCount() != ran.acknowledged()) {
        disagreements.add(name + ": " + ran.acknowledged() + " acknowledged, doc_count "
            + (ran.docCount() == BulkInsertFigures.NOT_READ ? "not read" : ran.docCount()));
      }
      double repliesPerUser = (double) ran.replies() / ran.users();
      if (ran.replies() > 0 && StepRule.restsOnLess(ran.seconds(), repliesPerUser)) {
        shortSteps.add(String.format(Locale.ROOT, "%s (%.2f s, %d replies to %d users)", name, ran.seconds(),
            ran.replies(), ran.users()));
      }
    }
    SummaryPage page =
        SummaryPage.titled(results.run().simulation() + ": documents created per second")
            .line("Target: " + String.join(", ", results.run().targets()) + ".")
            .line("Each step: T virtual users" + (injectors > 1 ? " on each of the " + injectors + " injectors"
                    + " together create at least " + plan.docs() + " documents, each injector in a fresh database of"
                    + " its own," : " together create at least " + plan.docs() + " documents in a fresh database,")
                + " B per POST /db/_bulk_docs, or one per POST /db (single). Documents: "
                + (plan.docSize() == 0 ? "empty {} as in the seed" : plan.docSize() + " characters of random text")
                + ".")
            .line(plan.length().describe())
            .line("Rounds: " + rounds.describe() + (rounds.repeated() ? "; each round runs the whole sweep, in"
                + " databases of its own, and the time chart shows round 1." : "."))
            .line("docs/s = documents the server acknowledged / wall time from the step's first"
                + " request to its last reply. doc_count is the database's own count after the step."
                + " Failed replies: replies that were not all stored; failed requests: Gatling's count,"
                + " which adds the requests that got no reply (a timeout, a closed connection).");
    if (injectors > 1) {
      page = page.line("Merged from " + injectors + " injectors: a step's replies, docs sent, docs acknowledged and"
          + " doc_count are the injectors' sums (each wrote into databases of its own, so their doc_counts add);"
          + " its seconds are the union of their windows of the step, from the first injector's start to the last"
          + " one's end, and its docs/s the summed acknowledged documents / those seconds. The injectors start"
          + " together but each runs its steps one after another on its own, so a step's window may hold moments"
          + " when only some of them ran it. The time chart adds up the injectors' documents on that window's"
          + " clock.");
    }
    if (failedRequests > 0) {
      page = page.warning(failedRequests + " requests failed, by step and Gatling's message: " + named(failures)
          + ".");
    }
    if (!logRead) {
      page = page.warning("Gatling's simulation.log could not be read: failed requests are not shown.");
    }
    if (figures.loginRefused()) {
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
    Map<String, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> byStep = byStep(steps);
    if (rounds.repeated()) {
      page = page.table("docs per second by step", medians(byStep))
          .table("docs per second by step and round", table);
    } else {
      page = page.table("docs per second by step", table);
    }
    page = cpu(page, rounds, injectors, figures.server(), steps);
    Optional<LineChart> chart = rateChart(rounds, byStep);
    if (chart.isPresent()) {
      List<LineChart> progress = progressCharts(rounds, steps);
      long threads = byStep.values().stream().map(stepRounds -> stepRounds.get(0).getKey())
          .filter(step -> !step.single()).map(BulkInsertStep::threads).distinct().count();
      int fewest = (Chart.MAX_SERIES - 1) / 2;
      page = page.charts("docs per second against batch size", List.of(chart.get()), threads > Chart.MAX_SERIES
          ? "The chart draws " + Chart.MAX_SERIES + " of the " + threads + " thread counts: the " + fewest
              + " smallest T, the middle one and the " + (Chart.MAX_SERIES - 1 - fewest) + " largest; the CSV has"
              + " them all." : "")
          .charts("time to create the documents", progress, progress.size() > 1 ? "One chart per thread count T,"
              + " each a line per batch size B that is a power of 4; the CSV has them all." : "");
    }
    return page;
  }

  /** The plan's steps, in order, each with its figures. */
  private Map<BulkInsertStep, BulkInsertFigures.Step> steps(BulkInsertFigures figures) {
    Map<String, BulkInsertFigures.Step> byName = figures.steps().stream()
        .collect(Collectors.toMap(BulkInsertFigures.Step::name, step -> step, (a, b) -> a));
    Map<BulkInsertStep, BulkInsertFigures.Step> steps = new LinkedHashMap<>();
    for (BulkInsertStep step : plan.steps()) {
      BulkInsertFigures.Step ran = byName.get(plan.name(step));
      if (ran == null) {
        throw new ResultsException("BulkInsert's figures have no step " + plan.name(step) + ", which the run's"
            + " parameters make: figures of another run, or of another version of couchbench");
      }
      steps.put(step, ran);
    }
    return steps;
  }

  /** Each step's rounds, in the order the steps first ran. */
  private static Map<String, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> byStep(
      Map<BulkInsertStep, BulkInsertFigures.Step> steps) {
    Map<String, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> byStep = new LinkedHashMap<>();
    steps.entrySet()
        .forEach(entry -> byStep.computeIfAbsent(entry.getKey().name(), n -> new ArrayList<>()).add(entry));
    return byStep;
  }

  /** The rounds that measured something: a round with no reply (a stopped run) has no figure, not a zero. */
  private static List<BulkInsertFigures.Step> measured(
      List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>> rounds) {
    return rounds.stream().map(Map.Entry::getValue).filter(step -> step.replies() > 0).toList();
  }

  /** One row per step: its docs/s as the median of the rounds that measured it, with their range. */
  private static Table medians(Map<String, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> byStep) {
    Table table = Table.of("method", "B", "T", "rounds", "docs acknowledged", "seconds", "docs/s", "min", "max");
    for (List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>> rounds : byStep.values()) {
      BulkInsertStep step = rounds.get(0).getKey();
      List<BulkInsertFigures.Step> measured = measured(rounds);
      if (measured.isEmpty()) {
        table = table.row(method(step), step.batchSize(), step.threads(), 0, null, null, null, null, null);
        continue;
      }
      Spread rate = Spread.of(measured.stream().map(BulkInsertFigures.Step::docsPerSecond).toList());
      table = table.row(method(step), step.batchSize(), step.threads(), measured.size(),
          Spread.of(measured.stream().map(BulkInsertFigures.Step::acknowledged).toList()).median(),
          Spread.of(measured.stream().map(BulkInsertFigures.Step::seconds).toList()).median(),
          rate.median(), rate.min(), rate.max());
    }
    return table;
  }

  /**
   * The seed's plot: docs/s against B, one line per T, bulk steps only; with rounds, medians with their range. Empty
   * when no bulk step measured anything.
   */
  private static Optional<LineChart> rateChart(
      Rounds rounds, Map<String, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> byStep) {
    Map<Integer, List<Number>> batchSizes = new TreeMap<>();
    Map<Integer, List<Spread>> rates = new TreeMap<>();
    for (List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>> steps : byStep.values()) {
      BulkInsertStep step = steps.get(0).getKey();
      List<BulkInsertFigures.Step> measured = measured(steps);
      if (!step.single() && !measured.isEmpty()) {
        batchSizes.computeIfAbsent(step.threads(), t -> new ArrayList<>()).add(step.batchSize());
        rates.computeIfAbsent(step.threads(), t -> new ArrayList<>())
            .add(Spread.of(measured.stream().map(BulkInsertFigures.Step::docsPerSecond).toList()));
      }
    }
    LineChart chart =
        LineChart.titled("Documents created per second against batch size"
                + (rounds.repeated() ? " (median of " + rounds.count() + " rounds, bars: their range)" : ""))
            .axes("batch size B (documents per _bulk_docs request)", "documents per second")
            .logX();
    // More thread counts than a chart draws: the fewest, the middle and the most.
    List<Integer> drawn = Subset.lowestMedianHighest(List.copyOf(batchSizes.keySet()), t -> t, Chart.MAX_SERIES)
        .drawn();
    for (Map.Entry<Integer, List<Number>> line : batchSizes.entrySet()) {
      String name = "T=" + line.getKey();
      List<Spread> ys = rates.get(line.getKey());
      if (!drawn.contains(line.getKey())) {
        chart = chart.csvOnlySeries(name, line.getValue(), ys.stream().map(Spread::median).toList());
      } else {
        chart = rounds.repeated() ? chart.spreadSeries(name, line.getValue(), ys)
            : chart.series(name, line.getValue(), ys.stream().map(Spread::median).toList());
      }
    }
    return batchSizes.isEmpty() ? Optional.empty() : Optional.of(chart);
  }

  /**
   * The seed's other plot: the time the documents took against their number, a line per step for the batch sizes
   * that are powers of 4 (a line for every step would be 60), bulk steps only, one chart per T (all in one would be 18
   * lines); with rounds, round 1's. A T with more such batch sizes than a chart draws shows the smallest, the middle
   * and the largest.
   */
  private static List<LineChart> progressCharts(Rounds rounds, Map<BulkInsertStep, BulkInsertFigures.Step> steps) {
    Map<Integer, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> byThreads = new TreeMap<>();
    for (Map.Entry<BulkInsertStep, BulkInsertFigures.Step> entry : steps.entrySet()) {
      BulkInsertStep step = entry.getKey();
      int b = step.batchSize();
      boolean powerOf4 = Integer.bitCount(b) == 1 && Integer.numberOfTrailingZeros(b) % 2 == 0;
      if (step.round() == 1 && !step.single() && powerOf4) {
        byThreads.computeIfAbsent(step.threads(), t -> new ArrayList<>()).add(entry);
      }
    }
    List<LineChart> charts = new ArrayList<>();
    for (Map.Entry<Integer, List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>>> threads : byThreads.entrySet()) {
      List<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>> lines = threads.getValue();
      Subset<Map.Entry<BulkInsertStep, BulkInsertFigures.Step>> drawn =
          Subset.lowestMedianHighest(lines, entry -> entry.getKey().batchSize(), Chart.MAX_SERIES);
      LineChart chart = LineChart.titled("Time to create the documents against their number, T=" + threads.getKey()
              + " (B a power of 4" + (drawn.partial() ? ", " + drawn.drawn().size() + " of " + drawn.of() : "")
              + (rounds.repeated() ? ", round 1 of " + rounds.count() : "") + ")")
          .axes("documents created", "seconds since the step's start");
      for (Map.Entry<BulkInsertStep, BulkInsertFigures.Step> entry : lines) {
        BulkInsertStep step = entry.getKey();
        List<BulkInsertFigures.Point> points = entry.getValue().progress();
        String name = "B=" + step.batchSize() + " T=" + step.threads();
        List<Long> documents = points.stream().map(BulkInsertFigures.Point::documents).toList();
        List<Double> seconds = points.stream().map(BulkInsertFigures.Point::seconds).toList();
        chart = drawn.drawn().contains(entry) ? chart.series(name, documents, seconds)
            : chart.csvOnlySeries(name, documents, seconds);
      }
      charts.add(chart);
    }
    if (charts.isEmpty()) { // no step of round 1 to draw: the chart says so by its empty plot
      charts.add(LineChart.titled("Time to create the documents against their number (B a power of 4)")
          .axes("documents created", "seconds since the step's start"));
    }
    return charts;
  }

  /** What the load generator used beside what the server used, step by step (and round by round). */
  private static SummaryPage cpu(SummaryPage page, Rounds rounds, int injectors, String server,
      Map<BulkInsertStep, BulkInsertFigures.Step> steps) {
    Table table = Table.of(columns(rounds, "method", "B", "T", "client CPU (s)", "client user (s)",
        "client system (s)", "client JIT (s)", "client GC (s)", "server CPU (s)", "client / server"));
    double client = 0;
    double served = 0;
    for (Map.Entry<BulkInsertStep, BulkInsertFigures.Step> entry : steps.entrySet()) {
      BulkInsertStep step = entry.getKey();
      BulkInsertFigures.Cpu cpu = entry.getValue().cpu();
      if (cpu == null) {
        continue;
      }
      Double used = cpu.server();
      Double share = cpu.client() == null || used == null || used <= 0 ? null : cpu.client() / used;
      table = table.row(cells(rounds, step, method(step), step.batchSize(), step.threads(), cpu.client(), cpu.user(),
          cpu.system(), cpu.jit(), cpu.gc(), used, share));
      client += cpu.client() == null ? 0 : cpu.client();
      served += used == null ? 0 : used;
    }
    String totals = String.format(Locale.ROOT, " In all steps%s: client %.2f s, server %.2f s.",
        rounds.repeated() ? " of all rounds" : "", client, served);
    String clients = injectors > 1 ? "the " + injectors + " injectors' JVMs, each one's seconds added up; of them,"
        + " their" : "this JVM; of it, its";
    page = page.line("CPU seconds while each step ran" + (rounds.repeated() ? ", round by round," : "")
        + " of the load generator (client: " + clients + " JIT"
        + " compiler threads, and " + (injectors > 1 ? "their" : "its") + " garbage collector threads with the VM"
        + " thread that runs their pauses) and of"
        + (server == null ? " the server: n/a, it is not on this machine, or its process could not be seen."
            : " the server, " + server + (injectors > 1 ? ", read once for all injectors: from the earliest"
                + " reading at a step's start to the latest at its end, of the injectors on its machine" : "")
                + ". On one machine they share the cores: what the client uses, the server cannot." + totals));
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
