package couchbench.search;

import couchbench.curve.CurvePage;
import couchbench.curve.StepFigures;
import couchbench.report.BarChart;
import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * After Search: the index's build (its time, documents a second, the Nouveau server's CPU and memory, and the same
 * second by second), then each search class's latency and throughput (Gatling's, by request name) and the writes', with
 * a chart of the medians.
 */
public final class SearchSummary implements Summary<SearchFigures> {

  private static final String BUILD_SECONDS = "seconds into the build";

  @Override
  public Class<SearchFigures> figuresType() {
    return SearchFigures.class;
  }

  /** Search runs on one injector ({@link SearchPlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public SearchFigures merge(List<SearchFigures> injectors) {
    return Summary.ofOneInjector("Search", injectors);
  }

  @Override
  public SummaryPage page(Results results, SearchFigures figures) {
    Map<String, Results.Entry> entries = new LinkedHashMap<>();
    results.requests().forEach(entry -> entries.put(entry.name(), entry));
    SummaryPage page = SummaryPage.titled("Search: Nouveau full-text searches, every hit checked")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + String.format(Locale.ROOT, ". Loading the documents took %.1f s, before"
            + " the measured part; every reply is checked against the answer known from the data (hits, totals, a"
            + " sort's order, facet counts, documents, every page of a bookmark walk).", figures.loadSeconds()))
        .table("the index's build: from the design document's PUT to the first search answered"
            + (figures.rebuild() == null ? "" : "; its rebuild after its function changed (a new revision)"),
            buildRow(buildRow(Table.of("build", "build (s)", "documents a second", "written meanwhile",
                "documents indexed", "index on disk (MB)", "_active_tasks: seen / read", "progress seen (%)",
                "Nouveau server", "its CPU (s)", "its memory before (MB)", "after (MB)", "CouchDB CPU (s)"),
                "first", figures.build()), "after the change", figures.rebuild()));
    page = bySecond(page, figures);
    if (!figures.comparisonBuilds().isEmpty()) {
      Table builds = Table.of("design document", "build (s)");
      for (Map.Entry<String, Double> built : figures.comparisonBuilds().entrySet()) {
        builds = builds.row(built.getKey(), round(built.getValue()));
      }
      page = page.table("the other engines' indexes, each from its creation to its first query answered", builds);
    }
    Table table = Table.of("search", "what it asks", "requests", "failed", "req/s in the mix", "p50 (ms)", "p90 (ms)",
        "p99 (ms)", "max (ms)");
    List<String> classes = new ArrayList<>();
    List<Double> medians = new ArrayList<>();
    for (SearchClass searchClass : SearchClass.values()) {
      for (Engine engine : Engine.values()) {
        String name = SearchCall.requestName(searchClass, engine);
        Results.Entry entry = entries.get(name);
        if (entry != null) {
          table = table.row(row(name, searchClass.description() + (engine == Engine.NOUVEAU ? ""
              : "; " + engine.description()), entry));
          classes.add(name);
          medians.add(entry.ok() == 0 ? null : millis(entry.latency().p50()));
        }
      }
    }
    Map<String, String> writes = Map.of("write", String.format(Locale.ROOT, "a new document no search of the data"
        + " matches (%,d acknowledged)", figures.writes()), "fresh write", "a freshness writer's document",
        "fresh search", "a freshness writer's search for its document");
    for (String name : List.of("write", "fresh write", "fresh search")) {
      Results.Entry entry = entries.get(name);
      if (entry != null) {
        table = table.row(row(name, writes.get(name), entry));
      }
    }
    for (Results.Entry entry : entries.values()) {
      if (entry.ko() > 0) {
        page = page.warning(String.format(Locale.ROOT, "%s: %,d of %,d requests failed, e.g. %s", entry.name(),
            entry.ko(), entry.count(), results.failures(entry.name()).keySet().stream().findFirst().orElse("")));
      }
    }
    page = page.table(figures.steps().isEmpty() ? "each search class (a page of a bookmark walk is a request); req/s is"
        + " its share of the mix's throughput: run a class alone (-Dsearches=term) for its own" : "each search class (a"
        + " page of a bookmark walk is a request), over every step it ran alone; each step's own latencies are in the"
        + " staircase's table", table);
    SearchFigures.Freshness fresh = figures.freshness();
    Results.Entry found = entries.get(SearchLoad.FOUND_BY_SEARCH);
    if (found != null) {
      page = page.table("freshness: each freshness writer's document, from its acknowledgement to the first search"
              + " that found it (a search that did not is stale)", Table.of("writes", "found", "not found in "
              + SearchPlan.FIND_WITHIN.toSeconds() + " s", "searches", "stale searches", "p50 (ms)", "p90 (ms)",
              "p99 (ms)", "max (ms)")
          .row(found.count(), fresh.found(), fresh.notFound(), fresh.searches(), fresh.stale(),
              millis(found.latency().p50()), millis(found.latency().p90()), millis(found.latency().p99()),
              millis(found.latency().max())));
    }
    if (!figures.steps().isEmpty()) {
      Map<String, Double> highest = new LinkedHashMap<>();
      figures.steps().forEach((searchClass, steps) -> highest.put(searchClass, StepFigures.highestMet(steps)));
      page = CurvePage.addTo(page, figures.staircase(), figures.steps(), highest);
    }
    return classes.isEmpty() ? page : page.chart("median latency per search class", BarChart.titled(
        "median latency", classes).axes("search class", "p50 (ms)").series("p50", medians));
  }

  // Each build second by second, sampled as the load's seconds are: charts of the CPU, the Nouveau server's memory and
  // the index's documents, and the numbers in a table of their own (its CSV: build-seconds.csv).
  private static SummaryPage bySecond(SummaryPage page, SearchFigures figures) {
    Map<String, SearchFigures.Build> builds = new LinkedHashMap<>();
    builds.put("first", figures.build());
    if (figures.rebuild() != null) {
      builds.put("after the change", figures.rebuild());
    }
    builds.values().removeIf(build -> build == null || build.bySecond().isEmpty());
    if (builds.isEmpty()) {
      return page;
    }
    LineChart cpu = LineChart.titled("CPU during the build").axes(BUILD_SECONDS, "% of a core");
    LineChart memory = LineChart.titled("the Nouveau server's resident memory during the build")
        .axes(BUILD_SECONDS, "MB");
    LineChart documents = LineChart.titled("the index's documents during the build (_nouveau_info)")
        .axes(BUILD_SECONDS, "documents");
    Table table = Table.of("build", "second", "nouveau cpu (% of a core)", "nouveau resident memory (MB)",
        "couchdb cpu (% of a core)", "index documents", "progress (%)");
    for (Map.Entry<String, SearchFigures.Build> build : builds.entrySet()) {
      List<SearchFigures.BuildSecond> seconds = build.getValue().bySecond();
      String of = builds.size() == 1 ? "" : ", " + build.getKey();
      cpu = line(line(cpu, "Nouveau" + of, seconds, SearchFigures.BuildSecond::nouveauCpu), "CouchDB" + of, seconds,
          SearchFigures.BuildSecond::couchCpu);
      memory = line(memory, "Nouveau" + of, seconds, SearchFigures.BuildSecond::nouveauMemory);
      documents = line(documents, "indexed" + of, seconds, SearchFigures.BuildSecond::indexedDocs);
      for (SearchFigures.BuildSecond second : seconds) {
        table = table.row(build.getKey(), second.second(), known(round(second.nouveauCpu())),
            known(round(second.nouveauMemory())), known(round(second.couchCpu())),
            known(Math.round(second.indexedDocs())), known(Math.round(second.progress())));
      }
    }
    return page.line("The build second by second: the Nouveau server's and CouchDB's processes read as the load's"
            + " seconds read them (the CPU a rate over each second: none in the first), the index's documents as"
            + " _nouveau_info said at each second's end, the progress as _active_tasks last listed it.")
        .chart("the build: CPU", cpu).chart("the build: the Nouveau server's memory", memory)
        .chart("the build: the index's documents", documents).table("build seconds", table);
  }

  // A figure's line, a second it was not read (-1) a gap; none where it was never read (a server elsewhere).
  private static LineChart line(LineChart chart, String name, List<SearchFigures.BuildSecond> seconds,
      ToDoubleFunction<SearchFigures.BuildSecond> figure) {
    List<Double> ys = seconds.stream().map(second -> figure.applyAsDouble(second) < 0 ? Double.NaN
        : figure.applyAsDouble(second)).toList();
    return ys.stream().allMatch(y -> y.isNaN()) ? chart
        : chart.series(name, seconds.stream().map(SearchFigures.BuildSecond::second).toList(), ys);
  }

  private static Object known(double value) {
    return value < 0 ? "" : value;
  }

  private static Object known(long value) {
    return value < 0 ? "" : value;
  }

  private static Table buildRow(Table table, String which, SearchFigures.Build build) {
    return build == null ? table : table.row(which, round(build.seconds()), Math.round(build.docsPerSecond()),
        build.writes(), build.indexedDocs(), megabytes(build.diskBytes()), build.samplesSeen() + " / "
            + build.samples(), build.progress() < 0 ? "n/a" : build.progress(), build.nouveau().isEmpty()
            ? "not on this machine" : build.nouveau(), seconds(build.nouveauCpuSeconds()),
        megabytes(build.nouveauMemoryBefore()), megabytes(build.nouveauMemoryAfter()),
        seconds(build.couchCpuSeconds()));
  }

  private static Object[] row(String name, String description, Results.Entry entry) {
    return new Object[] {name, description, entry.count(), entry.ko(), round(entry.ratePerSecond()),
        millis(entry.latency().p50()), millis(entry.latency().p90()), millis(entry.latency().p99()),
        millis(entry.latency().max())};
  }

  private static Object seconds(double value) {
    return value < 0 ? "n/a" : round(value);
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
