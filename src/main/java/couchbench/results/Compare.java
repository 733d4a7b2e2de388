package couchbench.results;

import couchbench.report.Chart;
import couchbench.report.LineChart;
import couchbench.report.Subset;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * Runs side by side, from their results.json and histograms.hlog only (never Gatling's binary log): a baseline A
 * against one contender B or several (B, C, ...), each contender in a section of its own: per request name both
 * runs' rate, p50, p99, p99.9 and KO count with the ratio to A, the percentile curves overlaid, and a warning
 * wherever the runs differ in simulation, parameters or targets. Writes compare.html and a CSV per table into
 * {@code <results root>/compare-<A>-vs-<B>/}, or {@code compare-<A>-vs-<N>-runs/} for several. Entries pair up by name and kind; {@code pairs} pairs
 * differently named ones, e.g. MemGet's "memcache get" with CouchGet's "couchdb get".
 *
 * <p>{@code mvn -q exec:java@compare -Druns=A,B[,C...] [-Dexec.args=...]}, or {@code java couchbench.results.Compare
 * A,B ["name in A=name in B;..."]}.
 */
public final class Compare {

  /** A run read for comparing: its results, its OK histograms by tag, and its label. */
  record Run(String label, Results results, Map<String, Histogram> histograms) {}

  /** One row of the comparison: an entry of A against one of B (either may be missing). */
  record Pair(String name, Optional<Results.Entry> a, Optional<Results.Entry> b) {}

  /** A pair's two curves, either missing where that run has no OK request of it, ranked by A's p99 (else B's). */
  private record Curves(String a, PercentileCurve curveA, String b, PercentileCurve curveB, double p99Micros) {

    double maxMicros() {
      return Math.max(curveA == null ? 0 : curveA.maxMicros(), curveB == null ? 0 : curveB.maxMicros());
    }
  }

  private static final String RATIOS = "Ratios are to A, the baseline: above 1 means the run is faster for rates,"
      + " slower for latencies. Latencies of OK requests in microseconds, as each run's results.json says who timed"
      + " them (couchbench's memcache client in nanoseconds; Gatling in whole milliseconds). Warm-up requests left"
      + " out; an empty cell: the request is not in that run.";

  private Compare() {}

  /**
   * @param args "A,B[,C...]" (run folders or results.json files, the baseline first), then optionally
   *     "nameA=nameB;..." pairs
   */
  public static void main(String[] args) {
    try {
      Path written = run(args);
      System.out.println("compare: " + written.toAbsolutePath() + ", its tables as CSV beside it");
    } catch (ResultsException | UncheckedIOException e) {
      System.err.println("compare: " + e.getMessage());
      System.exit(1);
    }
  }

  /**
   * Compares the two runs and writes the page.
   *
   * @param args as for {@link #main}
   * @return compare.html's path
   * @throws ResultsException with one line when an argument, a file or a folder is wrong; nothing is written then
   */
  static Path run(String[] args) {
    // exec:java passes an empty -Druns or -Dpairs as null.
    String[] runs = args.length == 0 || args[0] == null ? new String[0] : args[0].split(",", -1);
    if (runs.length < 2 || Arrays.stream(runs).anyMatch(String::isBlank)) {
      throw new ResultsException("give two run folders (or results.json files) or more, the baseline first:"
          + " -Druns=reports/A,reports/B[,reports/C...]");
    }
    Map<String, String> pairs = args.length > 1 && args[1] != null ? pairs(args[1]) : Map.of();
    Run a = read(Path.of(runs[0].trim()));
    List<Run> contenders = Arrays.stream(runs).skip(1).map(run -> read(Path.of(run.trim()))).toList();
    SummaryPage page = contenders.size() == 1 ? page(a, contenders.get(0), pairs) : page(a, contenders, pairs);
    // Several contenders' labels would make a name past the file system's 255 bytes: their count names the folder.
    Path folder = RunFolders.resultsRoot().resolve("compare-" + a.label() + "-vs-"
        + (contenders.size() == 1 ? contenders.get(0).label() : contenders.size() + "-runs"));
    return page.writeTo(folder, "compare.html");
  }

  /** Reads a run's results and histograms; a results.json names its folder's histogram log. */
  static Run read(Path given) {
    Results results = ResultsFile.read(given);
    Path folder = Files.isDirectory(given) ? given : given.toAbsolutePath().getParent();
    Map<String, Histogram> histograms = HistogramLog.totals(folder.resolve(results.run().histograms()));
    return new Run(folder.getFileName().toString(), results, histograms);
  }

  /** The page of two runs: warnings first, the table, the overlaid curves. */
  static SummaryPage page(Run a, Run b, Map<String, String> pairs) {
    return section(SummaryPage.titled("Compare: " + a.label() + " (A) against " + b.label() + " (B)")
        .line("A: " + describe(a.results()) + ".")
        .line("B: " + describe(b.results()) + "."), a, b, "B", "", pairs);
  }

  /** The page of a baseline and several contenders: the same section per contender, each against A. */
  static SummaryPage page(Run a, List<Run> contenders, Map<String, String> pairs) {
    SummaryPage page = SummaryPage.titled("Compare: " + a.label() + " (A) against " + contenders.size() + " runs")
        .line("A, the baseline: " + describe(a.results()) + ".");
    for (int i = 0; i < contenders.size(); i++) {
      page = page.line(contender(i) + ": " + describe(contenders.get(i).results()) + ".");
    }
    page = page.line(RATIOS);
    for (int i = 0; i < contenders.size(); i++) {
      page = section(page, a, contenders.get(i), contender(i), " (" + contender(i) + ": "
          + contenders.get(i).label() + ")", pairs);
    }
    return page;
  }

  // B, C, ... Z, then R27, R28, ...: the run's place in -Druns.
  private static String contender(int index) {
    return index < 25 ? String.valueOf((char) ('B' + index)) : "R" + (index + 2);
  }

  /** One contender against A: its differences as warnings, its table, its curves overlaid on A's. */
  private static SummaryPage section(SummaryPage page, Run a, Run b, String name, String caption,
      Map<String, String> pairs) {
    for (String difference : differences(a.results().run(), b.results().run())) {
      page = page.warning("The runs differ" + (caption.isEmpty() ? "" : ", A and " + name) + ": " + difference + ".");
    }
    String ratio = name + "/A";
    Table table = Table.of("request", "kind", "rate A (/s)", "rate " + name + " (/s)", "rate " + ratio, "p50 A (us)",
        "p50 " + name + " (us)", "p50 " + ratio, "p99 A (us)", "p99 " + name + " (us)", "p99 " + ratio, "p99.9 A (us)",
        "p99.9 " + name + " (us)", "p99.9 " + ratio, "KO A", "KO " + name);
    List<Curves> curves = new ArrayList<>();
    for (Pair pair : pair(a.results(), b.results(), pairs)) {
      Results.Entry ea = pair.a().orElse(null);
      Results.Entry eb = pair.b().orElse(null);
      String kind = (ea != null ? ea : eb).kind();
      table = table.row(pair.name(), kind,
          ea == null ? null : ea.ratePerSecond(), eb == null ? null : eb.ratePerSecond(),
          ratio(ea == null ? null : ea.ratePerSecond(), eb == null ? null : eb.ratePerSecond()),
          p(ea, Results.Latency::p50), p(eb, Results.Latency::p50),
          ratio(p(ea, Results.Latency::p50), p(eb, Results.Latency::p50)),
          p(ea, Results.Latency::p99), p(eb, Results.Latency::p99),
          ratio(p(ea, Results.Latency::p99), p(eb, Results.Latency::p99)),
          p(ea, Results.Latency::p999), p(eb, Results.Latency::p999),
          ratio(p(ea, Results.Latency::p999), p(eb, Results.Latency::p999)),
          ea == null ? null : ea.ko(), eb == null ? null : eb.ko());
      Histogram okA = ok(ea, a.histograms());
      Histogram okB = ok(eb, b.histograms());
      if (okA != null || okB != null) {
        curves.add(new Curves("A: " + (ea == null ? "" : ea.name()), okA == null ? null : PercentileCurve.of(okA),
            name + ": " + (eb == null ? "" : eb.name()), okB == null ? null : PercentileCurve.of(okB),
            PercentileCurve.p99Micros(okA != null ? okA : okB)));
      }
    }
    // Each pair draws two curves: at most half as many pairs as a chart draws series.
    Subset<Curves> drawn = Subset.lowestMedianHighest(curves, Curves::p99Micros, Chart.MAX_SERIES / 2);
    String unit = PercentileCurve.unit(curves.stream().mapToDouble(Curves::maxMicros).max().orElse(0));
    LineChart chart = PercentileCurve.chart("latency by percentile, OK requests, A and " + name
        + (drawn.partial() ? " (" + drawn.drawn().size() + " of " + drawn.of() + " requests)" : ""), unit);
    for (Curves pair : curves) {
      boolean draw = drawn.drawn().contains(pair);
      chart = curve(chart, pair.a(), pair.curveA(), unit, draw);
      chart = curve(chart, pair.b(), pair.curveB(), unit, draw);
    }
    return (caption.isEmpty() ? page.line(RATIOS) : page)
        .table("compare" + caption, table)
        .charts("latency by percentile" + caption, List.of(chart), drawn.describe("requests and groups of A and "
            + name, PercentileCurve.RANKED_BY + " in A (in " + name + " where A has none)", "fastest", "slowest"));
  }

  /** Pairs A's and B's measured entries: by the given names first, then by equal name and kind. */
  static List<Pair> pair(Results a, Results b, Map<String, String> pairs) {
    Map<String, Results.Entry> measuredB = measured(b);
    List<Pair> rows = new ArrayList<>();
    for (Results.Entry ea : measured(a).values()) {
      String nameB = pairs.getOrDefault(ea.name(), ea.name());
      Optional<Results.Entry> eb = Optional.ofNullable(measuredB.remove(ea.kind() + ":" + nameB));
      rows.add(new Pair(nameB.equals(ea.name()) ? ea.name() : ea.name() + " / " + nameB, Optional.of(ea), eb));
    }
    measuredB.values().forEach(eb -> rows.add(new Pair(eb.name(), Optional.empty(), Optional.of(eb))));
    return rows;
  }

  /** What differs between two runs' simulation, parameters and targets, one phrase each. */
  static List<String> differences(Results.Run a, Results.Run b) {
    List<String> differences = new ArrayList<>();
    if (!a.simulation().equals(b.simulation())) {
      differences.add("simulation " + a.simulation() + " against " + b.simulation());
    }
    differences.addAll(parameterDifferences(a.parameters(), b.parameters()));
    if (!a.targets().equals(b.targets())) {
      differences.add("targets " + a.targets() + " against " + b.targets());
    }
    return differences;
  }

  /**
   * @param a a run's parameters
   * @param b another's
   * @return how they differ, one phrase per parameter, e.g. "-Dusers 16 against 32"
   */
  public static List<String> parameterDifferences(Map<String, String> a, Map<String, String> b) {
    Set<String> names = new TreeSet<>(a.keySet());
    names.addAll(b.keySet());
    List<String> differences = new ArrayList<>();
    for (String name : names) {
      String va = a.getOrDefault(name, "(not read)");
      String vb = b.getOrDefault(name, "(not read)");
      if (!va.equals(vb)) {
        differences.add("-D" + name + " " + va + " against " + vb);
      }
    }
    return differences;
  }

  private static Map<String, Results.Entry> measured(Results results) {
    Map<String, Results.Entry> entries = new LinkedHashMap<>();
    results.requests().stream().filter(e -> !e.warmUp() && e.count() > 0)
        .forEach(e -> entries.put(e.kind() + ":" + e.name(), e));
    return entries;
  }

  private static String describe(Results results) {
    Results.Run run = results.run();
    return run.simulation() + " from " + run.start() + " to " + run.end() + " against " + String.join("; ",
        run.targets()) + " (couchbench " + run.versions().couchbench() + ", Gatling " + run.versions().gatling()
        + ", Java " + run.versions().java() + ")";
  }

  /** @return the entry's OK times, null when it is missing or had no OK request */
  private static Histogram ok(Results.Entry entry, Map<String, Histogram> times) {
    Histogram ok = entry == null ? null : times.get(entry.okTag());
    return ok == null || ok.getTotalCount() == 0 ? null : ok;
  }

  private static LineChart curve(LineChart chart, String series, PercentileCurve curve, String unit, boolean draw) {
    if (curve == null) {
      return chart;
    }
    return draw ? chart.series(series, curve.xs(), curve.in(unit)) : chart.csvOnlySeries(series, curve.xs(),
        curve.in(unit));
  }

  /** @return the entry's figure, null when it is missing or had no OK request */
  private static Double p(Results.Entry entry, Function<Results.Latency, Double> percentile) {
    return entry == null || entry.ok() == 0 ? null : percentile.apply(entry.latency());
  }

  private static String ratio(Double a, Double b) {
    return a == null || b == null || a == 0 ? null : String.format(Locale.ROOT, "%.3f", b / a);
  }

  private static Map<String, String> pairs(String text) {
    Map<String, String> pairs = new LinkedHashMap<>();
    for (String pair : text.split(";")) {
      if (pair.isBlank()) {
        continue;
      }
      String[] names = pair.split("=", -1);
      if (names.length != 2 || names[0].isBlank() || names[1].isBlank()) {
        throw new ResultsException("pairs \"" + text + "\": expected \"name in A=name in B;...\", e.g."
            + " \"memcache get=couchdb get\"");
      }
      pairs.put(names[0].trim(), names[1].trim());
    }
    return pairs;
  }
}
