package couchbench.trend;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.run.RunExtension;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The run extension of -Dtrend: as the page is written, a line fitted to each judged series of the run's seconds
 * ({@link TrendVerdict}); a series that rises beyond its threshold, its whole 95% interval above it, ends the run with
 * {@link #RISES}. The verdicts are a table on the page, each judged series a chart with its line.
 */
public final class TrendExtension implements RunExtension {

  /** The exit code of a run in which a judged series rose beyond its threshold. */
  public static final int RISES = 7;

  /** How `exec:java@extensions` lists it. */
  public static final Spec SPEC = new Spec("trend", "-Dtrend=rss:+5%/h,p99:+10%/h,... (series: "
      + String.join(", ", TrendPlan.SERIES.keySet()) + ")",
      "fits a line to each series a long run should hold flat, from the run's seconds: its slope an hour with a 95%"
          + " interval against the threshold, exit code 7 when one rises beyond it, a chart of each with its line",
      "nothing during the load: it reads seconds.csv after it");

  private static final String SECONDS_FILE = "seconds.csv";

  private final TrendPlan plan;

  private TrendExtension(TrendPlan plan) {
    this.plan = plan;
  }

  /**
   * @param settings the run's settings
   * @return the extension, with -Dtrend
   * @throws couchbench.startup.SettingsException when -Dtrend does not parse, before the load
   */
  public static Optional<RunExtension> from(Settings settings) {
    // Read as a run parameter when given, so that results.json lists it: a merge judges its injectors by it.
    return TrendPlan.parse(settings.value("trend").map(given -> settings.get("trend", given)))
        .map(TrendExtension::new);
  }

  @Override
  public SummaryPage addTo(SummaryPage page, Results results, Path folder) {
    Judged judged = judge(plan, page, Map.of("", folder));
    if (judged.rises()) {
      Console.warn("trend: a series rose beyond its threshold (-Dtrend): exit code " + RISES);
      AtExit.exitWith(RISES);
    }
    return judged.page();
  }

  /**
   * A page with the verdicts of some run folders' seconds, and whether a series rose beyond its threshold.
   *
   * @param page the page with them
   * @param rises whether a judged series rose
   */
  record Judged(SummaryPage page, boolean rises) {}

  /**
   * Judges the seconds of each folder, its columns named after its label (none for a run's own folder).
   *
   * @param plan the series and thresholds
   * @param page the page so far
   * @param folders the run folders, by label, e.g. "injector 0/2"
   * @return the page with a table of every verdict and a chart of each judged column
   */
  static Judged judge(TrendPlan plan, SummaryPage page, Map<String, Path> folders) {
    List<TrendVerdict> verdicts = new ArrayList<>();
    for (Map.Entry<String, Path> folder : folders.entrySet()) {
      String label = folder.getKey().isEmpty() ? "" : folder.getKey() + ": ";
      Path file = folder.getValue().resolve(SECONDS_FILE);
      Map<String, double[]> columns;
      try {
        columns = SecondsColumns.read(file);
      } catch (IOException | RuntimeException e) {
        Console.say("trend: " + label + "not judged: " + file + " could not be read (" + e.getMessage() + ")");
        page = page.warning("-Dtrend: " + label + "not judged: " + file + " could not be read (" + e.getMessage()
            + ")");
        continue;
      }
      double[] seconds = columns.getOrDefault("second", new double[0]);
      for (TrendPlan.Rule rule : plan.rules()) {
        List<String> covered = columns.keySet().stream().filter(rule::covers).toList();
        if (covered.isEmpty()) {
          page = page.warning("-Dtrend: " + label + "no " + rule.series() + " series ("
              + TrendPlan.SERIES.get(rule.series()).what() + "): not judged");
        }
        for (String column : covered) {
          verdicts.add(TrendVerdict.of(rule, label + column, seconds, columns.get(column)));
        }
      }
    }
    return judged(page, verdicts);
  }

  private static Judged judged(SummaryPage page, List<TrendVerdict> verdicts) {
    Table table = Table.of("series", "column", "values", "slope, in % of its mean an hour", "threshold", "verdict");
    boolean rises = false;
    for (TrendVerdict verdict : verdicts) {
      String threshold = String.format(Locale.ROOT, "+%s%%/h", trimmed(verdict.rule().percentAnHour()));
      TrendVerdict.Outcome outcome = verdict.outcome();
      Console.say("trend: " + verdict.column() + ": " + verdict.slope() + " against " + threshold + ": " + outcome);
      table = table.row(verdict.rule().series(), verdict.column(), verdict.xs().size(), verdict.slope(), threshold,
          outcome.toString());
      if (outcome == TrendVerdict.Outcome.RISES) {
        rises = true;
        page = page.warning("-Dtrend: " + verdict.column() + " rises " + verdict.slope() + ", beyond " + threshold);
      } else if (outcome == TrendVerdict.Outcome.NOT_JUDGED) {
        page = page.warning("-Dtrend: " + verdict.column() + " not judged: " + verdict.notJudged());
      }
    }
    page = page.table("Trends (-Dtrend)", table).line("A line fitted to each series by least squares over the load's"
        + " seconds; a series rises when the slope's whole 95% interval is above its threshold (the interval takes the"
        + " seconds as independent, which makes it narrower than the truth).");
    for (TrendVerdict verdict : verdicts) {
      if (verdict.fit() != null) {
        page = page.chart("Trend: " + verdict.column() + ", " + verdict.outcome(), chart(verdict));
      }
    }
    return new Judged(page, rises);
  }

  private static LineChart chart(TrendVerdict verdict) {
    return LineChart.titled(verdict.column() + ": " + verdict.slope())
        .axes("seconds into the load", verdict.column())
        .series(verdict.column(), verdict.xs(), verdict.ys())
        .series("fitted line", List.of(verdict.xs().get(0), verdict.xs().get(verdict.xs().size() - 1)),
            List.of(verdict.fit().at(verdict.xs().get(0)), verdict.fit().at(verdict.xs().get(verdict.xs().size() - 1))));
  }

  private static String trimmed(double percent) {
    return percent == Math.rint(percent) ? String.valueOf((long) percent) : String.valueOf(percent);
  }
}
