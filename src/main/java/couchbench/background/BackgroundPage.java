package couchbench.background;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.LoadSeconds;
import couchbench.results.RunOutput;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The background work on the page: each task (when it ran, how far _active_tasks showed it, what it did on disk), the
 * load's figures before, during and after each, and the tasks' progress on the time axis of the run's seconds charts.
 */
public final class BackgroundPage {

  private BackgroundPage() {}

  /**
   * @param page the run's page
   * @param plan the tasks asked for
   * @param tasks the tasks as they ran
   * @param seconds the load's requests' seconds (those counted apart, as notifications, left out), by the second of the
   *     run's clock they ended in
   * @param loadStartMillis the load's start on the run's clock, epoch-like milliseconds
   * @param steadyMillis where its steady load began, from which the first task's "before" counts
   * @param loadEndMillis its end
   * @return the page with the tasks added
   */
  public static SummaryPage addTo(SummaryPage page, BackgroundPlan plan, List<BackgroundTask> tasks,
      List<LoadSeconds.Second> seconds, long loadStartMillis, long steadyMillis, long loadEndMillis) {
    long second0 = Math.floorDiv(loadStartMillis, 1000);
    Table ran = Table.of("task", "what", "started (s)", "ended (s)", "took (s)", "seen", "highest progress (%)",
        "on disk before (MB)", "on disk after (MB)", "detail", "outcome");
    Table load = Table.of("task", "the load", "from (s)", "to (s)", "requests a second", "p50 (ms)", "p99 (ms)",
        "p99.9 (ms)", "max (ms)");
    // Spanning the load, as the seconds charts above do, so that a task sits under its seconds.
    LineChart progress = LineChart.titled("background tasks' progress")
        .axes("seconds into the load", "%").xRange(0, Math.max(1, Math.floorDiv(loadEndMillis, 1000) - second0));
    for (int i = 0; i < tasks.size(); i++) {
      BackgroundTask task = tasks.get(i);
      String name = name(i, task);
      boolean ended = task.endMillis() >= 0;
      ran = ran.row(name, task.what(), at(task.startMillis(), second0), ended ? at(task.endMillis(), second0) : null,
          ended ? (task.endMillis() - task.startMillis()) / 1000.0 : null, task.seen() + " of " + task.progress().size()
              + " reads", highestProgress(task), megabytes(task.bytesBefore()), megabytes(task.bytesAfter()),
          task.detail(), ended ? "ended" : task.problem());
      if (!task.progress().isEmpty()) {
        long end = task.ranUntilMillis();
        long from = i == 0 ? steadyMillis : tasks.get(i - 1).ranUntilMillis();
        long nextStart = i + 1 < tasks.size() ? tasks.get(i + 1).startMillis() : loadEndMillis;
        load = window(load, name, "before", seconds, from, task.startMillis(), second0);
        if (task.backMillis() >= 0) {
          // A restarted node: the load while it was away, then while it caught up.
          load = window(load, name, "node away", seconds, task.startMillis(), task.backMillis(), second0);
          load = window(load, name, "node catching up", seconds, task.backMillis(), end, second0);
        } else {
          load = window(load, name, "during", seconds, task.startMillis(), end, second0);
        }
        load = window(load, name, "after", seconds, end, Math.max(end, nextStart), second0);
      }
      if (!task.progress().isEmpty()) {
        progress = progress.series(name, task.progress().stream().map(read -> at(read.epochMillis(), second0))
            .toList(), task.progress().stream().map(read -> Math.max(0, read.percent())).toList());
      }
    }
    return page.line("Background work: " + plan.describe() + ". Each task was started by the run itself on a client of"
            + " its own, then followed every 100 ms until it ended (seen: the reads of _active_tasks that listed it;"
            + " for nodesync, the reads of the restarted node's copies, which are back and caught up when none has"
            + " fewer documents than another copy of its range); the load ran on, its figures checked as always."
            + " Before, during and after compare the load's OK requests (its requests alone: entries counted apart on"
            + " the seconds charts, such as notifications, lags and verdicts, are not in them) in the seconds before"
            + " the task (since the"
            + " steady load began, or the last one ended), while it ran, and after it (until the next one started), each"
            + " second counted in the window holding its middle; a restarted node's time is split into its time away"
            + " and its catch-up; a task refused has no windows, one that did not end ran until its last read. Each"
            + " task followed is shaded on the run's seconds charts above, over the load's and the servers' figures.")
        .table("background tasks", ran)
        .table("the load before, during and after each background task", load)
        .chart("background tasks on the run's time axis", progress);
  }

  // Empty when _active_tasks never listed it.
  private static Integer highestProgress(BackgroundTask task) {
    int highest = task.progress().stream().mapToInt(BackgroundTask.Progress::percent).max().orElse(-1);
    return highest < 0 ? null : highest;
  }

  /**
   * @param tasks the tasks as they ran
   * @return each task followed, from its start until it ended (or its last read), to shade on the run's seconds charts
   */
  public static List<RunOutput.Span> spans(List<BackgroundTask> tasks) {
    List<RunOutput.Span> spans = new ArrayList<>();
    for (int i = 0; i < tasks.size(); i++) {
      BackgroundTask task = tasks.get(i);
      if (!task.progress().isEmpty()) {
        spans.add(new RunOutput.Span(name(i, task), task.startMillis(), task.ranUntilMillis()));
      }
    }
    return spans;
  }

  /**
   * @param span a stretch shaded on the run's seconds charts
   * @return whether it is a restart-cache task's: the memcache cache emptied from its start
   */
  public static boolean emptiedTheCache(RunOutput.Span span) {
    return span.label().endsWith(" " + BackgroundPlan.Kind.RESTART_CACHE.value());
  }

  // e.g. "1 compact": its place in the plan and its kind, in the tables and on the charts.
  private static String name(int index, BackgroundTask task) {
    return (index + 1) + " " + task.kind().value();
  }

  private static Table window(Table table, String task, String which, List<LoadSeconds.Second> seconds, long from,
      long to, long second0) {
    Histogram times = new Histogram(3);
    long requests = 0;
    int counted = 0;
    // The load's seconds include those without a request (a stall is a second at 0/s), as seconds.csv lists them.
    for (LoadSeconds.Second second : seconds) {
      long middle = second.epochSecond() * 1000 + 500;
      if (middle >= from && middle < to) {
        times.add(second.okTimes());
        requests += second.ok() + second.ko();
        counted++;
      }
    }
    boolean any = times.getTotalCount() > 0;
    return table.row(task, which, at(from, second0), at(to, second0), counted > 0 ? (double) requests / counted : null,
        any ? millis(times, 50) : null, any ? millis(times, 99) : null, any ? millis(times, 99.9) : null,
        any ? times.getMaxValue() / 1e6 : null);
  }

  // Seconds into the load, on the seconds charts' axis: second 0 is the run clock's second the load started in.
  private static double at(long epochMillis, long second0) {
    return Math.round((epochMillis / 1000.0 - second0) * 10) / 10.0;
  }

  private static double millis(Histogram nanos, double percentile) {
    return Math.round(nanos.getValueAtPercentile(percentile) / 10_000.0) / 100.0;
  }

  private static Double megabytes(long bytes) {
    return bytes < 0 ? null : Math.round(bytes / 10_000.0) / 100.0;
  }
}
