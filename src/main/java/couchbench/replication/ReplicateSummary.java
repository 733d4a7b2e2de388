package couchbench.replication;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Histograms;
import couchbench.results.Results;
import couchbench.results.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * After Replicate: each replication's time and documents a second (one-shot) or first copy, lag and time to converge
 * (continuous), what CouchDB's scheduler said of it, and each target against its source.
 */
public final class ReplicateSummary implements Summary<ReplicateFigures> {

  private static final double[] PERCENTILES = {50, 95, 99, 99.9};
  private static final long GAP_MICROS = 1_000_000;

  @Override
  public Class<ReplicateFigures> figuresType() {
    return ReplicateFigures.class;
  }

  /** Replicate runs on one injector ({@link ReplicatePlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public ReplicateFigures merge(List<ReplicateFigures> injectors) {
    return Summary.ofOneInjector("Replicate", injectors);
  }

  @Override
  public SummaryPage page(Results results, ReplicateFigures figures) {
    SummaryPage page = SummaryPage.titled("Replicate: server-to-server replication, timed and verified")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + ".");
    if (!figures.oneShots().isEmpty()) {
      Table shots = Table.of("job", "time (s)", "documents written", "documents/s", "error");
      for (ReplicateFigures.OneShot shot : figures.oneShots()) {
        shots = shots.row(shot.job(), round(shot.seconds()), shot.docsWritten(), shot.seconds() == 0 ? 0
            : Math.round(shot.docsWritten() / shot.seconds()), shot.error());
      }
      page = page.table("each one-shot replication: from its POST /_replicate to the reply", shots);
    }
    if (!figures.watched().isEmpty()) {
      Table watched = Table.of("job", "first copy done (s into the load)", "documents copied", "writes seen",
          "duplicated", "missing at the end", "converged after the last write (s)");
      for (ReplicateFigures.Watched job : figures.watched()) {
        watched = watched.row(job.job(), job.copySeconds() < 0 ? "never" : round(job.copySeconds()), job.docs(),
            job.writes(), job.duplicated(), job.missing(), job.convergeSeconds() < 0 ? "n/a"
                : round(job.convergeSeconds()));
      }
      Histogram lag = Histograms.decode(figures.lagMicros());
      for (String gap : gaps(figures.lagBySecond())) {
        page = page.warning(gap);
      }
      Table lags = Table.of("what", "count", "p50 (ms)", "p95 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)")
          .row(lagRow("write, acknowledged to replicated", lag));
      if (figures.lagFromSentMicros() != null) {
        lags = lags.row(lagRow("write, sent to replicated", Histograms.decode(figures.lagFromSentMicros())));
      }
      page = page.line(String.format(Locale.ROOT, "Writes into the sources: %,d acknowledged, %,d failed. Lag: from a"
              + " write's acknowledgement by the source to its change read from the target's _changes, and from its"
              + " send. %,d writes reached their target before their writer had the acknowledgement: counted apart,"
              + " as 0 from it; the lag from the send has no such floor.", figures.writesAcknowledged(),
              figures.writesFailed(), figures.beforeAck()))
          .table("each continuous replication's target, as its _changes showed it", watched)
          .table("replication lag of the writes", lags)
          .chart("the longest lag of the writes acknowledged in each second", LineChart.titled("replication lag by"
                  + " second").axes("second of the load, by acknowledgement", "longest lag (ms)")
              .series("longest lag", figures.lagBySecond().stream().map(ReplicateFigures.LagSecond::second).toList(),
                  figures.lagBySecond().stream().map(second -> millis(second.maxLagMicros())).toList()));
    }
    if (!figures.scheduler().isEmpty()) {
      Table scheduler = Table.of("job", "reads", "states (reads)", "not running", "errors", "crashes",
          "checkpoints", "first error");
      for (ReplicateFigures.Scheduler job : figures.scheduler()) {
        scheduler = scheduler.row(job.job(), job.samples(), job.states().entrySet().stream()
                .map(state -> state.getKey() + " " + state.getValue()).sorted().collect(Collectors.joining(", ")),
            String.join("; ", job.notRunning()), job.errors(), job.crashes(), job.checkpoints(), job.firstError());
        for (String gap : job.notRunning()) {
          page = page.line("Job " + job.job() + ": " + gap + ".");
        }
      }
      page = page.table("what CouchDB's replication scheduler said, once a second (GET /_scheduler/jobs, /_scheduler"
          + "/docs)", scheduler);
    }
    Table compared = Table.of("job", "source documents", "target documents", "missing", "other revision", "extra",
        "source digest", "target digest", "same");
    for (ReplicateFigures.Comparison job : figures.comparisons()) {
      compared = compared.row(job.job(), job.sourceDocs(), job.targetDocs(), job.missing(), job.differing(),
          job.extra(), job.sourceDigest(), job.targetDigest(), job.same() ? "yes" : "NO");
      if (!job.same()) {
        page = page.warning(String.format(Locale.ROOT, "job %d: the target differs from its source: %,d missing, %,d"
            + " with another revision, %,d extra.", job.job(), job.missing(), job.differing(), job.extra()));
      }
    }
    return page.table("each target against its source after the load: every id and its winning revision", compared);
  }

  /**
   * @param seconds the lag per second of the load
   * @return each stretch of seconds whose writes took over a second to reach their target (a replication that
   *     stalled, e.g. while its target restarted), in words
   */
  static List<String> gaps(List<ReplicateFigures.LagSecond> seconds) {
    List<String> gaps = new ArrayList<>();
    ReplicateFigures.LagSecond first = null;
    ReplicateFigures.LagSecond last = null;
    long longest = 0;
    for (ReplicateFigures.LagSecond second : seconds) {
      boolean slow = second.maxLagMicros() > GAP_MICROS;
      if (first != null && (!slow || second.second() != last.second() + 1)) {
        gaps.add(gap(first, last, longest));
        first = null;
      }
      if (slow) {
        first = first == null ? second : first;
        longest = first == second ? second.maxLagMicros() : Math.max(longest, second.maxLagMicros());
        last = second;
      }
    }
    if (first != null) {
      gaps.add(gap(first, last, longest));
    }
    return gaps;
  }

  private static String gap(ReplicateFigures.LagSecond first, ReplicateFigures.LagSecond last, long longestMicros) {
    return String.format(Locale.ROOT, "Writes acknowledged from %d s to %d s into the load took up to %.1f s to reach"
        + " their target.", first.second(), last.second() + 1, longestMicros / 1e6);
  }

  private static Object[] lagRow(String what, Histogram micros) {
    Object[] row = new Object[7];
    row[0] = what;
    row[1] = micros.getTotalCount();
    for (int i = 0; i < PERCENTILES.length; i++) {
      row[2 + i] = millis(micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(PERCENTILES[i]));
    }
    row[6] = millis(micros.getMaxValue());
    return row;
  }

  private static double millis(long micros) {
    return Math.round(micros / 1e3 * 10) / 10.0;
  }

  private static double round(double seconds) {
    return Math.round(seconds * 100) / 100.0;
  }
}
