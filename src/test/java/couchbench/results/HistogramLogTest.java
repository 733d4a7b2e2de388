package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistogramLogTest {

  @TempDir
  Path folder;

  @Test
  void shouldReadBackEveryIntervalAndAddThemExactly() throws Exception {
    Path file = folder.resolve("histograms.hlog");
    Histogram first = histogram(100_000, 200_000, 300_000);
    Histogram second = histogram(150_000, 5_000_000);
    try (HistogramLog log = HistogramLog.create(file, 1_000_000)) {
      log.interval("request:memcache_get:ok", 1_000_000, 1_005_000, first.copy());
      log.interval("request:memcache_get:ok", 1_005_000, 1_010_000, second.copy());
      log.interval("request:memcache_get:ko", 1_005_000, 1_010_000, histogram(7_000));
      log.interval("request:empty:ok", 1_005_000, 1_010_000, histogram()); // empty: not written
    }

    Map<String, Histogram> totals = HistogramLog.totals(file);

    Histogram expected = first.copy();
    expected.add(second);
    assertEquals(List.of("request:memcache_get:ok", "request:memcache_get:ko"), List.copyOf(totals.keySet()));
    assertEquals(expected, totals.get("request:memcache_get:ok"), "the sum of the intervals, value for value");
    assertEquals(1, totals.get("request:memcache_get:ko").getTotalCount());
  }

  @Test
  void shouldBeReadableByHdrHistogramsOwnReaderWithTimes() throws Exception {
    Path file = folder.resolve("histograms.hlog");
    try (HistogramLog log = HistogramLog.create(file, 1_000_000)) {
      log.interval("request:memcache_get:ok", 1_005_000, 1_010_000, histogram(100_000));
    }
    try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
      Histogram interval = (Histogram) reader.nextIntervalHistogram();
      assertEquals("request:memcache_get:ok", interval.getTag());
      assertEquals(1_005_000, interval.getStartTimeStamp());
      assertEquals(1_010_000, interval.getEndTimeStamp());
      assertEquals(1000.0, reader.getStartTimeSec(), 0.001);
    }
  }

  @Test
  void shouldRefuseALogCutShortNamingIt() throws Exception {
    Path file = folder.resolve("histograms.hlog");
    try (HistogramLog log = HistogramLog.create(file, 0)) {
      for (int i = 0; i < 5; i++) {
        log.interval("request:x:ok", i * 5000L, i * 5000L + 5000, histogram(1000 + i));
      }
    }
    String text = Files.readString(file);
    Files.writeString(file, text.substring(0, text.length() * 2 / 3));

    ResultsException cut = assertThrows(ResultsException.class, () -> HistogramLog.totals(file));
    assertTrue(cut.getMessage().startsWith(file + ": cut short"), cut.getMessage());
  }

  @Test
  void shouldRefuseALogMissingIntervalsBeforeItsEndLine() throws Exception {
    Path file = folder.resolve("histograms.hlog");
    try (HistogramLog log = HistogramLog.create(file, 0)) {
      log.interval("request:x:ok", 0, 5000, histogram(1000));
      log.interval("request:x:ok", 5000, 10000, histogram(2000));
    }
    List<String> lines = Files.readAllLines(file);
    lines.remove(lines.size() - 2); // the last interval
    Files.write(file, lines);

    ResultsException damaged = assertThrows(ResultsException.class, () -> HistogramLog.totals(file));
    assertEquals(file + ": holds 1 intervals, its end line says 2", damaged.getMessage());
  }

  @Test
  void shouldSayWhenThereIsNoLog() {
    Path file = folder.resolve("none.hlog");
    assertEquals(file + ": no such file",
        assertThrows(ResultsException.class, () -> HistogramLog.totals(file)).getMessage());
  }

  @Test
  void shouldTagWithoutSpacesOrCommas() {
    assertEquals("request:memcache_record_read:ok", HistogramTags.request("memcache record read", true));
    assertEquals("group:a_b_c:ko", HistogramTags.group("a,b c", false));
  }

  static Histogram histogram(long... nanos) {
    Histogram histogram = new Histogram(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    for (long value : nanos) {
      histogram.recordValue(value);
    }
    return histogram;
  }
}
