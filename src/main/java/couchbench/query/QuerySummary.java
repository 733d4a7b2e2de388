package couchbench.query;

import couchbench.report.BarChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * After Query: each index's build, then per query class its ways and databases side by side: latency and throughput
 * (Gatling's, by request name), and what the server says it examined per result returned; a chart of the medians.
 */
public final class QuerySummary implements Summary<QueryFigures> {

  @Override
  public Class<QueryFigures> figuresType() {
    return QueryFigures.class;
  }

  /** Query runs on one injector ({@link QueryPlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public QueryFigures merge(List<QueryFigures> injectors) {
    return Summary.ofOneInjector("Query", injectors);
  }

  @Override
  public SummaryPage page(Results results, QueryFigures figures) {
    Map<String, Results.Entry> entries = new LinkedHashMap<>();
    results.requests().forEach(entry -> entries.put(entry.name(), entry));
    Map<String, QueryFigures.ServerWork> work = new LinkedHashMap<>();
    figures.work().forEach(counts -> work.put(counts.request(), counts));
    SummaryPage page = SummaryPage.titled("Query: Mango and views over the same orders, indexed or not, global or"
            + " partitioned")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + String.format(Locale.ROOT, ". Loading the orders took %.1f s, before the"
            + " measured part; every reply is checked against the answer known from the data (ids, order, limit,"
            + " pages, sums).", figures.loadSeconds()))
        .line("Each request name is a query class, the way it is asked, and the database: its latency is Gatling's"
            + " (whole milliseconds); req/s is its share of the mix's throughput (run one class alone, -Dqueries=range,"
            + " for its own); docs and keys examined are the server's execution_stats (Mango only) over the results"
            + " it returned.")
        .table("each index's build: from the request creating it to a query of it answered (in every partition)",
            builds(figures.builds()));
    for (String why : figures.leftOut()) {
      page = page.warning("Left out: " + why + ".");
    }
    for (Results.Entry entry : entries.values()) {
      if (entry.ko() > 0) {
        page = page.warning(String.format(Locale.ROOT, "%s: %,d of %,d requests failed, e.g. %s", entry.name(),
            entry.ko(), entry.count(), results.failures(entry.name()).keySet().stream().findFirst().orElse("")));
      }
    }
    List<QueryClass> classes = new ArrayList<>();
    for (QueryClass queryClass : QueryClass.values()) {
      Table table = Table.of("way", "database", "requests", "failed", "req/s in the mix", "p50 (ms)", "p90 (ms)",
          "p99 (ms)", "max (ms)", "docs examined a reply", "docs examined a result", "keys examined a result",
          "warnings");
      List<QueryFigures.ServerWork> warned = new ArrayList<>();
      for (Scope scope : Scope.values()) {
        for (Way way : queryClass.ways()) {
          String name = QueryCall.requestName(queryClass, way, scope);
          Results.Entry entry = entries.get(name);
          if (entry != null) {
            table = table.row(row(way, scope, entry, Optional.ofNullable(work.get(name))));
            Optional.ofNullable(work.get(name)).filter(counts -> counts.warnings() > 0).ifPresent(warned::add);
          }
        }
      }
      if (!table.rows().isEmpty()) {
        classes.add(queryClass);
        page = page.table(queryClass.value() + ": " + queryClass.description(), table);
        for (QueryFigures.ServerWork counts : warned) {
          page = page.line(String.format(Locale.ROOT, "%s: %,d of %,d replies carried the server's warning: \"%s\"",
              counts.request(), counts.warnings(), counts.replies(), counts.firstWarning().replace('\n', ' ')));
        }
      }
    }
    Table writes = Table.of("database", "writes", "failed", "req/s", "p50 (ms)", "p90 (ms)", "p99 (ms)", "max (ms)");
    boolean wrote = false;
    for (Results.Entry entry : entries.values()) {
      if (entry.name().startsWith("write / ")) {
        wrote = true;
        writes = writes.row(entry.name().substring("write / ".length()), entry.count(), entry.ko(),
            round(entry.ratePerSecond()), millis(entry.latency().p50()), millis(entry.latency().p90()),
            millis(entry.latency().p99()), millis(entry.latency().max()));
      }
    }
    page = wrote ? page.table("writes: new orders no query asks for, each database's indexes brought up to date by"
        + " the next query of them", writes) : page;
    return classes.isEmpty() ? page : page.charts("median latency per query class, per way", charts(classes, entries),
        "Each bar is a request name's median (Gatling, whole milliseconds); a way a class is not asked by has no bar.");
  }

  private static Table builds(List<QueryFigures.IndexBuild> builds) {
    Table table = Table.of("database", "index", "build (s)", "_active_tasks: seen / read", "progress seen (%)",
        "index on disk (MB)", "server CPU (s)", "server memory before (MB)", "after (MB)");
    for (QueryFigures.IndexBuild build : builds) {
      table = table.row(build.database(), build.kind() + " _design/" + build.ddoc(), round(build.seconds()),
          build.samplesSeen() + " / " + build.samples(), build.progress() < 0 ? "n/a" : build.progress(),
          megabytes(build.indexBytes()), build.serverCpuSeconds() < 0 ? "n/a" : round(build.serverCpuSeconds()),
          megabytes(build.memoryBefore()), megabytes(build.memoryAfter()));
    }
    return table;
  }

  private static Object[] row(Way way, Scope scope, Results.Entry entry, Optional<QueryFigures.ServerWork> work) {
    Optional<QueryFigures.ServerWork> stats = work.filter(counts -> counts.withStats() > 0);
    return new Object[] {way.description(), scope.value(), entry.count(), entry.ko(), round(entry.ratePerSecond()),
        millis(entry.latency().p50()), millis(entry.latency().p90()), millis(entry.latency().p99()),
        millis(entry.latency().max()),
        stats.map(counts -> String.format(Locale.ROOT, "%.1f", (double) counts.docsExamined() / counts.withStats()))
            .orElse("n/a"),
        stats.map(counts -> perResult(counts.docsExamined(), counts.resultsReturned())).orElse("n/a"),
        stats.map(counts -> perResult(counts.keysExamined(), counts.resultsReturned())).orElse("n/a"),
        work.map(QueryFigures.ServerWork::warnings).orElse(0L)};
  }

  private static List<BarChart> charts(List<QueryClass> classes, Map<String, Results.Entry> entries) {
    List<BarChart> charts = new ArrayList<>();
    for (Scope scope : Scope.values()) {
      List<String> categories = classes.stream().map(QueryClass::value).toList();
      BarChart chart = BarChart.titled("median latency, " + scope.value() + " database", categories)
          .axes("query class", "p50 (ms)");
      boolean drawn = false;
      for (Way way : Way.values()) {
        List<Double> medians = new ArrayList<>();
        for (QueryClass queryClass : classes) {
          Results.Entry entry = entries.get(QueryCall.requestName(queryClass, way, scope));
          medians.add(entry == null || entry.ok() == 0 ? null : millis(entry.latency().p50()));
        }
        if (medians.stream().anyMatch(median -> median != null)) {
          chart = chart.series(way.description(), medians);
          drawn = true;
        }
      }
      if (drawn) {
        charts.add(chart);
      }
    }
    return charts;
  }

  private static String perResult(long examined, long returned) {
    return returned == 0 ? examined + " for none" : String.format(Locale.ROOT, "%.1f", (double) examined / returned);
  }

  private static Object megabytes(long bytes) {
    return bytes < 0 ? "n/a" : Math.round(bytes / 1e6 * 100) / 100.0;
  }

  private static double millis(double micros) {
    return Math.round(micros / 1e3 * 10) / 10.0;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
