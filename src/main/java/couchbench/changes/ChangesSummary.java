package couchbench.changes;

import couchbench.gatling.Pacing;
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
 * After Changes: per feed, what its listeners saw against what they should have (missed, duplicated, redelivered,
 * out of order, excluded by the filter), their connections, and the latency from each write's acknowledgement to each
 * listener's notification beside the writes' own. The first chart is the notification latency alone, per feed (tens
 * of milliseconds), the writes' (up to minutes from their intended start when the server falls behind) in a chart
 * of their own, so that neither flattens the other.
 */
public final class ChangesSummary implements Summary<ChangesFigures> {

  private static final double[] PERCENTILES = {50, 95, 99, 99.9};

  @Override
  public Class<ChangesFigures> figuresType() {
    return ChangesFigures.class;
  }

  /** Changes runs on one injector ({@link ChangesPlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public ChangesFigures merge(List<ChangesFigures> injectors) {
    return Summary.ofOneInjector("Changes", injectors);
  }

  @Override
  public SummaryPage page(Results results, ChangesFigures figures) {
    if (figures.catchUp() != null) {
      return catchUpPage(results, figures);
    }
    SummaryPage page = followPage(results, figures);
    // The headline's chart first (the listeners' or the nodes'), the writes' own after it.
    return writesChart(figures.visibility() == null ? page : visibility(page.retitled("Changes: how long until a"
        + " write acknowledged through one node is read through the others"), figures.visibility()),
        figures.writes());
  }

  private static SummaryPage writesChart(SummaryPage page, ChangesFigures.WriteFigures writes) {
    Map<String, Histogram> curves = new LinkedHashMap<>();
    curves.put("from its intended start", Histograms.microsToNanos(Histograms.decode(writes.intendedMicros())));
    curves.put("from when it was sent", Histograms.microsToNanos(Histograms.decode(writes.actualMicros())));
    return page.chart("the writes' own latency by percentile", PercentileCurve.chartOf("write latency by"
        + " percentile", curves));
  }

  // -Dvisibility=nodes: the lag of each pair of nodes, and each node's failures, when, and what it missed after.
  private static SummaryPage visibility(SummaryPage page, ChangesFigures.VisibilityFigures visibility) {
    Table pairs = Table.of("written through", "read through", "found", "not found", "reads a write", "p50 (ms)",
        "p95 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)");
    Map<String, Histogram> curves = new LinkedHashMap<>();
    SummaryPage shown = page;
    for (ChangesFigures.PairFigures pair : visibility.pairs()) {
      Histogram micros = Histograms.decode(pair.lagMicros());
      Object[] lag = cells("", micros);
      List<Object> row = new ArrayList<>(List.of("node " + pair.from(), "node " + pair.to(), pair.seen(),
          pair.notSeen(), pair.seen() + pair.notSeen() == 0 ? 0
              : Math.round(10.0 * pair.polls() / (pair.seen() + pair.notSeen())) / 10.0));
      row.addAll(List.of(lag).subList(2, lag.length));
      pairs = pairs.row(row.toArray());
      curves.put("node " + pair.from() + " to node " + pair.to(), Histograms.microsToNanos(micros));
      if (pair.notSeen() > 0) {
        shown = shown.warning(String.format(Locale.ROOT, "node %d did not return %,d writes acknowledged through"
            + " node %d within -Dquiet.", pair.to(), pair.notSeen(), pair.from()));
      }
    }
    Table nodes = Table.of("node", "URL", "failed requests", "first failure (s into the load)", "last failure (s)",
        "acknowledged writes missing after the load");
    for (ChangesFigures.NodeFigures node : visibility.nodes()) {
      nodes = nodes.row("node " + node.node(), node.url(), node.failures(), node.firstFailure(),
          node.lastFailure(), node.missingAfterwards());
      if (node.failures() > 0) {
        shown = shown.warning(String.format(Locale.ROOT, "node %d (%s): %,d requests through it failed, from %.1f s to"
            + " %.1f s into the load.", node.node(), node.url(), node.failures(), node.firstFailure(),
            node.lastFailure()));
      }
      if (node.missingAfterwards() != 0) {
        shown = shown.warning(node.missingAfterwards() < 0 ? "node " + node.node() + "'s _all_docs could not be read"
            + " after the load." : String.format(Locale.ROOT, "node %d's _all_docs lacks %,d acknowledged writes"
            + " after the load.", node.node(), node.missingAfterwards()));
      }
    }
    return shown.line("Lag: from the moment a write's acknowledgement came back through one node to the read through"
            + " another (GET with r=1, again and again) that returned the write's revision; its resolution is the"
            + " time between two reads of one write (\"reads a write\").")
        .table("lag across nodes, per pair", pairs)
        .table("each node's failures, and the acknowledged writes it lacks after the load", nodes)
        .chart("lag across nodes by percentile, per pair", PercentileCurve.chartOf("lag by percentile", curves));
  }

  // -Dcatchup: per reader, its time to the end, documents per second, pages, and what it missed or saw twice.
  private static SummaryPage catchUpPage(Results results, ChangesFigures figures) {
    ChangesFigures.CatchUpFigures catchUp = figures.catchUp();
    SummaryPage page = SummaryPage.titled("Changes: catching up on a database's _changes from 0")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + String.format(Locale.ROOT, ". Writing them took %.1f s, before the"
            + " measured part.", catchUp.fillSeconds()));
    Table readers = Table.of("reader", "time to the end (s)", "documents/s", "pages", "rows", "missed",
        "duplicated", "foreign rows");
    for (ChangesFigures.ReaderFigures reader : catchUp.readers()) {
      readers = readers.row(reader.reader(), round(reader.seconds()), reader.seconds() == 0 ? 0
          : Math.round(catchUp.documents() / reader.seconds()), reader.pages(), reader.rows(), reader.missed(),
          reader.duplicated(), reader.foreign());
      if (reader.missed() > 0) {
        page = page.warning(String.format(Locale.ROOT, "reader %d missed %,d of the %,d documents.", reader.reader(),
            reader.missed(), catchUp.documents()));
      }
    }
    Histogram pages = Histograms.decode(catchUp.pageMicros());
    return page.table("each reader, from 0 to the end", readers)
        .table("each page's time, from its request to its rows counted", Table.of("what", "count", "p50 (ms)",
            "p95 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)").row(cells("page of " + catchUp.pageSize(), pages)));
  }

  private static double round(double seconds) {
    return Math.round(seconds * 100) / 100.0;
  }

  private static SummaryPage followPage(Results results, ChangesFigures figures) {
    ChangesFigures.WriteFigures writes = figures.writes();
    SummaryPage page = SummaryPage.titled("Changes: how long until a write is seen by _changes listeners")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + ".")
        .line(String.format(Locale.ROOT, "Writes: %,d of %,d acknowledged, %,d failed, in %.1f s (%,.0f documents/s);"
                + " %,d requests sent over %d ms after their intended start. The databases' doc_count: %s.",
            writes.acknowledged(), writes.documents(), writes.failed(), writes.seconds(),
            writes.seconds() == 0 ? 0 : writes.acknowledged() / writes.seconds(), writes.late(),
            Pacing.LATE_NANOS / 1_000_000,
            figures.docCount() < 0 ? "not read" : String.format(Locale.ROOT, "%,d", figures.docCount())))
        .line("Notification latency: from the moment a writer had a write's acknowledgement to the moment a listener"
            + " read the write's row, on couchbench's clock, per listener (a write seen by 200 listeners counts 200"
            + " times). A row read before its writer had the reply counts as 0 and is counted apart (before ack);"
            + " the latency from when the write was sent has no such floor.");
    Table seen = Table.of("feed", "listeners", "attached", "most connections", "reconnects", "delivered",
        "should have", "missed", "listeners missing", "duplicated", "redelivered", "out of order", "before ack",
        "excluded by filter", "foreign rows");
    Table latency = Table.of("what", "count", "p50 (ms)", "p95 (ms)", "p99 (ms)", "p99.9 (ms)", "max (ms)");
    Map<String, Histogram> notifications = new LinkedHashMap<>();
    for (ChangesFigures.FeedFigures feed : figures.feeds()) {
      seen = seen.row(feed.feed(), feed.listeners(), feed.attached(), feed.mostConnections(), feed.reconnects(),
          feed.delivered(), feed.expected(), feed.missed(), feed.listenersMissing(), feed.duplicated(),
          feed.redelivered(), feed.outOfOrder(), feed.beforeAck(), feed.unexpected(), feed.foreign());
      Histogram micros = Histograms.decode(feed.fromAckMicros());
      latency = latency.row(cells("notification " + feed.feed() + ", from the acknowledgement", micros))
          .row(cells("notification " + feed.feed() + ", from the write sent", Histograms.decode(
              feed.fromSentMicros())));
      notifications.put(feed.feed(), Histograms.microsToNanos(micros));
      page = warnings(page, feed);
    }
    latency = latency.row(cells("write, from its intended start", Histograms.decode(writes.intendedMicros())))
        .row(cells("write, from when it was sent", Histograms.decode(writes.actualMicros())));
    return (figures.feeds().isEmpty() ? page : page.chart("notification latency by percentile, per feed: from a"
            + " write's acknowledgement to each listener's notification", PercentileCurve.chartOf(
            "notification latency by percentile", notifications))
        .table("what the listeners saw, per feed", seen))
        .table("latency: each write to each listener, and the writes themselves", latency);
  }

  private static SummaryPage warnings(SummaryPage page, ChangesFigures.FeedFigures feed) {
    SummaryPage warned = page;
    if (feed.missed() > 0) {
      warned = warned.warning(String.format(Locale.ROOT, "%s: %d listeners missed %,d of the %,d acknowledged writes"
          + " they should have seen: the run fails.", feed.feed(), feed.listenersMissing(), feed.missed(),
          feed.expected()));
    }
    if (feed.attached() < feed.listeners()) {
      warned = warned.warning(String.format(Locale.ROOT, "%s: %d of %d listeners' feeds never opened.", feed.feed(),
          feed.listeners() - feed.attached(), feed.listeners()));
    }
    if (feed.duplicated() > 0 || feed.unexpected() > 0) {
      warned = warned.warning(String.format(Locale.ROOT, "%s: %,d writes delivered twice without a reconnection, %,d"
          + " that the filter excludes.", feed.feed(), feed.duplicated(), feed.unexpected()));
    }
    if (feed.reconnects() > 0) {
      warned = warned.line(String.format(Locale.ROOT, "%s: %,d reconnections (%,d connections dropped), each going"
              + " on from the listener's last seq; the first because %s.", feed.feed(), feed.reconnects(),
          feed.connectionsDropped(), feed.firstReconnect()));
    }
    return warned;
  }

  private static Object[] cells(String what, Histogram micros) {
    List<Object> cells = new ArrayList<>(List.of(what, micros.getTotalCount()));
    for (double percentile : PERCENTILES) {
      cells.add(millis(micros.getTotalCount() == 0 ? 0 : micros.getValueAtPercentile(percentile)));
    }
    cells.add(millis(micros.getMaxValue()));
    return cells.toArray();
  }

  private static double millis(long micros) {
    return Math.round(micros / 1e3 * 1000) / 1000.0;
  }
}
