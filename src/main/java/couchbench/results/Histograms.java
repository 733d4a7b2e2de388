package couchbench.results;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/** A histogram as a simulation's figures keep it in results.json: HdrHistogram's compressed form, in base64. */
public final class Histograms {

  private Histograms() {}

  /**
   * @param histogram a histogram, possibly still recorded into (it is copied first)
   * @return its text for results.json
   */
  public static String encode(Histogram histogram) {
    Histogram copy = histogram.copy();
    ByteBuffer buffer = ByteBuffer.allocate(copy.getNeededByteBufferCapacity());
    int length = copy.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  /**
   * @param encoded what {@link #encode} wrote
   * @return the histogram
   * @throws IllegalArgumentException when it is not such a text
   */
  public static Histogram decode(String encoded) {
    try {
      return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(encoded)), 0);
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("not a histogram of results.json: " + e.getMessage(), e);
    }
  }

  /**
   * @param micros a histogram in microseconds
   * @return the same values in nanoseconds, as the percentile charts take them
   */
  public static Histogram microsToNanos(Histogram micros) {
    Histogram nanos = new Histogram(3);
    for (HistogramIterationValue value : micros.recordedValues()) {
      nanos.recordValueWithCount(value.getValueIteratedTo() * 1000, value.getCountAtValueIteratedTo());
    }
    return nanos;
  }
}
