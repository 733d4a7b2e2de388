package couchbench.metrics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyBucketsTest {

  @Test
  void shouldPutEachTimeInTheFirstBucketWhoseBoundHoldsIt() {
    LatencyBuckets buckets = new LatencyBuckets();
    buckets.add(0);
    buckets.add(100_000); // 100 µs: on the first bound, so in it
    buckets.add(100_001);
    buckets.add(3_000_000); // 3 ms
    buckets.add(120_000_000_000L); // 2 minutes: past the last bound

    long[] counts = buckets.counts();
    assertEquals(LatencyBuckets.BOUNDS.length + 1, counts.length);
    assertEquals(2, counts[0]);
    assertEquals(1, counts[1], "(100 µs, 200 µs]");
    assertEquals(1, counts[5], "(2 ms, 5 ms]");
    assertEquals(1, counts[counts.length - 1], "+Inf");
    assertEquals(120.003200001, buckets.seconds(), 1e-9);
  }

  @Test
  void shouldCountASecondsHistogramAsItsTimesOneByOne() {
    long[] nanos = {50_000, 150_000, 150_000, 900_000, 4_000_000, 70_000_000_000L};
    Histogram histogram = new Histogram(3);
    LatencyBuckets oneByOne = new LatencyBuckets();
    for (long time : nanos) {
      histogram.recordValue(time);
      oneByOne.add(time);
    }
    LatencyBuckets fromHistogram = new LatencyBuckets();

    fromHistogram.add(histogram);

    assertArrayEquals(oneByOne.counts(), fromHistogram.counts());
    assertEquals(oneByOne.seconds(), fromHistogram.seconds(), oneByOne.seconds() * 1e-3, "the sum, to the"
        + " histogram's 3 digits");
  }
}
