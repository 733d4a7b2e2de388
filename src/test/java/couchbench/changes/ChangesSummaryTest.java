package couchbench.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.results.Histograms;
import couchbench.siege.SiegeResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChangesSummaryTest {

  private static final Pattern CHART_CSV = Pattern.compile("<figure>\\n<img [^>]*>\\n<figcaption>.*?<a href=\"([^\"]+\\"
      + ".csv)\"");

  /**
   * As a busy run had it: notifications 10-40 ms after the acknowledgement, writes up to 110 s after their intended
   * start. The first chart is the headline, read in ms; the writes are charted apart.
   */
  @Test
  void shouldOpenWithTheNotificationLatencyAloneOnAnAxisWhereItReads(@TempDir Path folder) throws IOException {
    ChangesFigures figures = new ChangesFigures("2 writers", new ChangesFigures.WriteFigures(1000, 1000, 0, 120, 900,
        micros(1_000_000, 110_000_000), micros(5_000, 80_000)), List.of(feed("continuous"), feed("longpoll")), null,
        null, 1000);

    new ChangesSummary().page(SiegeResults.of("Changes", null, List.of("CouchDB at http://127.0.0.1:5984"), List.of()),
        figures).writeTo(folder);

    List<String> charts = chartFiles(Files.readString(folder.resolve("summary.html")));
    List<String> first = Files.readAllLines(folder.resolve(charts.get(0)));
    assertEquals("series,\"percentile, as log10(1/(1-p)): 1 = p90, 2 = p99, 3 = p99.9\",latency (ms)", first.get(0));
    assertEquals(Set.of("continuous", "longpoll"), column(first, 0), "the feeds' notifications alone");
    double highest = first.stream().skip(1).mapToDouble(row -> Double.parseDouble(row.substring(
        row.lastIndexOf(',') + 1))).max().orElseThrow();
    assertEquals(40, highest, 0.1, "the notifications' slowest, in ms, tops the axis");
    assertEquals(2, charts.size(), charts.toString());
    List<String> second = Files.readAllLines(folder.resolve(charts.get(1)));
    assertEquals(Set.of("from its intended start", "from when it was sent"), column(second, 0), "the writes' own");
  }

  // Each chart's CSV, in the page's order.
  private static List<String> chartFiles(String html) {
    Matcher matcher = CHART_CSV.matcher(html);
    List<String> files = new ArrayList<>();
    while (matcher.find()) {
      files.add(matcher.group(1));
    }
    return files;
  }

  private static Set<String> column(List<String> csv, int index) {
    Set<String> values = new TreeSet<>();
    csv.stream().skip(1).forEach(row -> values.add(row.split(",")[index]));
    return values;
  }

  private static ChangesFigures.FeedFigures feed(String kind) {
    return new ChangesFigures.FeedFigures(kind, 10, 10, 10, 10, 0, 0, null, 10_000, 10_000, 10_000, 0, 0, 0, 0, 0, 3,
        0, 0, micros(10_000, 40_000), micros(15_000, 60_000));
  }

  // A histogram of microseconds spread evenly from the first to the last.
  private static String micros(long first, long last) {
    Histogram histogram = new Histogram(3);
    for (int i = 0; i <= 1000; i++) {
      histogram.recordValue(first + (last - first) * i / 1000);
    }
    return Histograms.encode(histogram);
  }
}
