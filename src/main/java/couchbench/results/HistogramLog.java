package couchbench.results;

import java.io.BufferedOutputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;

/**
 * histograms.hlog: an HdrHistogram interval log (format 1.3, as HdrHistogram's HistogramLogProcessor and plotters
 * read it), one tag per request name and outcome ({@link HistogramTags}), times in nanoseconds. Any time range can be
 * re-read, and the logs of several runs added exactly. The last line says how many intervals came before it, so a
 * log cut short is told from a finished one.
 */
public final class HistogramLog implements IntervalSink, AutoCloseable {

  private static final String END = "#couchbench: end of log, %d intervals";
  private static final Pattern END_LINE = Pattern.compile("#couchbench: end of log, (\\d+) intervals");

  private final PrintStream out;
  private final HistogramLogWriter writer;
  private long intervals;

  private HistogramLog(PrintStream out, long startEpochMillis) {
    this.out = out;
    this.writer = new HistogramLogWriter(out);
    writer.outputLogFormatVersion();
    writer.outputComment("couchbench: times in nanoseconds; tags are request:<name>:ok|ko and group:<name>:ok|ko,"
        + " spaces and commas in names as _; results.json maps each request name to its tags");
    writer.outputStartTime(startEpochMillis);
    writer.setBaseTime(startEpochMillis);
    writer.outputBaseTime(startEpochMillis);
    writer.outputLegend();
  }

  /**
   * Starts a log.
   *
   * @param file where to write it (replaced if there)
   * @param startEpochMillis the run's start: interval times in the log are seconds from it
   * @return the open log
   * @throws ResultsException when the file cannot be created
   */
  public static HistogramLog create(Path file, long startEpochMillis) {
    try {
      return new HistogramLog(new PrintStream(new BufferedOutputStream(new FileOutputStream(file.toFile())), false,
          StandardCharsets.US_ASCII), startEpochMillis);
    } catch (FileNotFoundException e) {
      throw new ResultsException(file + ": cannot be written (" + e.getMessage() + ")");
    }
  }

  @Override
  public synchronized void interval(String tag, long startEpochMillis, long endEpochMillis, Histogram histogram) {
    if (histogram.getTotalCount() == 0) {
      return;
    }
    histogram.setTag(tag);
    histogram.setStartTimeStamp(startEpochMillis);
    histogram.setEndTimeStamp(endEpochMillis);
    writer.outputIntervalHistogram(histogram);
    intervals++;
  }

  /** Pushes what was written so far to the file, so that a run that dies leaves its intervals behind. */
  public synchronized void flush() {
    out.flush();
  }

  /** Writes the end line and closes the file. */
  @Override
  public synchronized void close() {
    out.println(String.format(END, intervals));
    out.close();
    if (out.checkError()) {
      throw new UncheckedIOException(new IOException("writing a histogram log failed"));
    }
  }

  /**
   * Copies every interval of another log into this one, with its tag and its times (several injectors' logs into one
   * merged log: a reader adding up a tag or a time range adds every injector's intervals).
   *
   * @param file a finished histograms.hlog
   * @throws ResultsException naming the file when it is missing, cut short or damaged
   */
  public void copyIntervals(Path file) {
    read(file, (tag, histogram) ->
        interval(tag, histogram.getStartTimeStamp(), histogram.getEndTimeStamp(), histogram));
  }

  /**
   * Adds up every interval of a log, per tag.
   *
   * @param file a histograms.hlog
   * @return the total histogram of each tag, in order of first appearance
   * @throws ResultsException naming the file when it is missing, cut short or damaged
   */
  public static Map<String, Histogram> totals(Path file) {
    Map<String, Histogram> totals = new LinkedHashMap<>();
    read(file, (tag, histogram) -> totals.computeIfAbsent(tag, t -> Outcomes.newCompact()).add(histogram));
    return totals;
  }

  /** Hands every interval of a finished log to a consumer, with its tag ("" for none), and checks their count. */
  private static void read(Path file, BiConsumer<String, Histogram> each) {
    long expected = declaredIntervals(file);
    long read = 0;
    try (HistogramLogReader reader = new HistogramLogReader(file.toFile())) {
      for (EncodableHistogram interval = reader.nextIntervalHistogram(); interval != null;
          interval = reader.nextIntervalHistogram()) {
        read++;
        if (!(interval instanceof Histogram histogram)) {
          throw new ResultsException(file + ": interval " + read + " is not an integer histogram");
        }
        each.accept(histogram.getTag() == null ? "" : histogram.getTag(), histogram);
      }
    } catch (FileNotFoundException e) {
      throw new ResultsException(file + ": no such file");
    } catch (ResultsException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ResultsException(file + ": damaged after " + read + " intervals (" + e + ")");
    }
    if (read != expected) {
      throw new ResultsException(file + ": holds " + read + " intervals, its end line says " + expected);
    }
  }

  /** The interval count of the end line; a log without one was cut short. */
  private static long declaredIntervals(Path file) {
    try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
      long length = raf.length();
      int tail = (int) Math.min(length, 200);
      byte[] bytes = new byte[tail];
      raf.seek(length - tail);
      raf.readFully(bytes);
      String text = new String(bytes, StandardCharsets.US_ASCII).stripTrailing();
      Matcher end = END_LINE.matcher(text.substring(text.lastIndexOf('\n') + 1));
      if (!end.matches()) {
        throw new ResultsException(file + ": cut short (no end line); the run that wrote it did not finish");
      }
      return Long.parseLong(end.group(1));
    } catch (FileNotFoundException e) {
      throw new ResultsException(file + ": no such file");
    } catch (IOException e) {
      throw new ResultsException(file + ": cannot be read (" + e.getMessage() + ")");
    }
  }
}
