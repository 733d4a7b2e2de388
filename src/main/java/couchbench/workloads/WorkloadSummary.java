package couchbench.workloads;

import couchbench.curve.CurvePage;
import couchbench.curve.StepFigures;
import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Histograms;
import couchbench.results.PercentileCurve;
import couchbench.results.Results;
import couchbench.results.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * After Workload: per system and operation, the mix run against the mix asked, the outcomes (conflicts apart), the
 * rate, and the latency percentiles from the intended and from the actual start side by side; the schedule's lag;
 * the servers' counts; and one chart per operation with the systems overlaid.
 */
public final class WorkloadSummary implements Summary<WorkloadFigures> {

  private static final double[] PERCENTILES = {50, 95, 99, 99.9};

  @Override
  public Class<WorkloadFigures> figuresType() {
    return WorkloadFigures.class;
  }

  /** Workload runs on one injector ({@link WorkloadPlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public WorkloadFigures merge(List<WorkloadFigures> injectors) {
    return Summary.ofOneInjector("Workload", injectors);
  }

  @Override
  public SummaryPage page(Results results, WorkloadFigures figures) {
    SummaryPage page = SummaryPage.titled("Workload: YCSB's operations on " + String.join(" and ",
            figures.systems().stream().map(WorkloadFigures.SystemFigures::system).toList()))
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.workload() + ". The load phase (\"<system> load\" in Gatling's report) inserted the"
            + " records first, each system on its own, then the operations ran.")
        .line("Latency from the intended start: from when the schedule meant the operation to start (-Dtarget spreads"
            + " them evenly over each thread), so an operation queued behind a slow one is as late as it; from the"
            + " actual start: from when it was sent, which hides that queueing (coordinated omission)."
            + (figures.target() > 0 || !figures.staircase().isEmpty() ? "" : " Without -Dtarget each operation"
            + " starts when the last ends: both clocks are one.")
            + (figures.staircase().isEmpty() ? "" : " Under -Dtargets the tables below add up every step, settling"
            + " included; each step's own figures are in the staircase's table."));
    Table mix = Table.of("system", "operation", "asked", "ran", "share", "ok", "conflicts", "torn", "failed",
        "ok/s");
    Table latency = Table.of("system", "operation", "clock", "p50 (ms)", "p95 (ms)", "p99 (ms)", "p99.9 (ms)",
        "max (ms)");
    Map<String, Map<String, Histogram>> byOperation = new LinkedHashMap<>();
    for (WorkloadFigures.SystemFigures system : figures.systems()) {
      long run = system.operationsRun();
      for (WorkloadFigures.OperationFigures operation : system.operations()) {
        mix = mix.row(system.system(), operation.operation(), figures.mixAsked().get(operation.operation()),
            operation.run(), run == 0 ? 0 : round((double) operation.run() / run, 4), operation.ok(),
            operation.conflicts(), operation.torn(), operation.failed(), system.seconds() == 0 ? 0
                : round(operation.ok() / system.seconds(), 1));
        Histogram intended = Histograms.decode(operation.intended());
        Histogram actual = Histograms.decode(operation.actual());
        latency = latency.row(percentileCells(system.system(), operation.operation(), "intended", intended))
            .row(percentileCells(system.system(), operation.operation(), "actual", actual));
        Map<String, Histogram> curves = byOperation.computeIfAbsent(operation.operation(), key -> new LinkedHashMap<>());
        curves.put(system.system() + " (actual start)", actual);
        if (figures.target() > 0) {
          curves.put(system.system() + " (intended start)", intended);
        }
      }
      page = page.line(system.system() + ": " + String.format(Locale.ROOT, "%,d", system.loaded()) + " records"
          + " loaded, " + String.format(Locale.ROOT, "%,d", system.inserted()) + " inserted by the operations; "
          + String.join("; ", system.serverCounts()) + ".");
      for (String note : system.notes()) {
        page = page.line(system.system() + ", " + note + ".");
      }
      if (system.steps().isEmpty()) {
        String pace = system.pace(figures.target()) + ".";
        page = system.behind(figures.target()) ? page.warning(pace) : page.line(pace);
      }
      long failed = system.operations().stream().mapToLong(WorkloadFigures.OperationFigures::failed).sum();
      if (failed > 0) {
        page = page.warning(String.format(Locale.ROOT, "%s: %,d operations failed (conflicts and torn reads not counted): Gatling's"
            + " report names their errors.", system.system(), failed));
      }
    }
    if (!figures.staircase().isEmpty()) {
      Map<String, List<StepFigures>> steps = new LinkedHashMap<>();
      Map<String, Double> highest = new LinkedHashMap<>();
      figures.systems().forEach(system -> {
        steps.put(system.system(), system.steps());
        highest.put(system.system(), system.highestRate());
      });
      page = CurvePage.addTo(page, figures.staircase(), steps, highest);
    }
    page = page.table("operations: the mix asked and run, outcomes, rate", mix)
        .table("latency of successful operations, from the intended and from the actual start", latency);
    List<LineChart> charts = new ArrayList<>();
    byOperation.forEach((operation, curves) ->
        charts.add(PercentileCurve.chartOf(operation + ": latency by percentile", curves)));
    return page.charts("latency by percentile, per operation, the systems overlaid", charts,
        "couchbench's own clocks, in nanoseconds, around each operation's whole chain (both of an update's requests).");
  }

  private static Object[] percentileCells(String system, String operation, String clock, Histogram nanos) {
    List<Object> cells = new ArrayList<>(List.of(system, operation, clock));
    for (double percentile : PERCENTILES) {
      cells.add(millis(nanos.getTotalCount() == 0 ? 0 : nanos.getValueAtPercentile(percentile)));
    }
    cells.add(millis(nanos.getMaxValue()));
    return cells.toArray();
  }

  private static double millis(long nanos) {
    return round(nanos / 1e6, 3);
  }

  private static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }
}
