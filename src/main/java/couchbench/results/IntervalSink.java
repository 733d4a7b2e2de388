package couchbench.results;

import org.HdrHistogram.Histogram;

/** Where interval histograms go as they are taken: {@link HistogramLog} writes them to histograms.hlog. */
interface IntervalSink {

  /** Takes nothing: for reading a log whose intervals are not wanted. */
  IntervalSink NONE = (tag, startEpochMillis, endEpochMillis, histogram) -> {};

  /**
   * One interval of one tag.
   *
   * @param tag the histogram's tag ({@link HistogramTags})
   * @param startEpochMillis the interval's start
   * @param endEpochMillis its end
   * @param histogram what was recorded in it, in nanoseconds; not kept after the call
   */
  void interval(String tag, long startEpochMillis, long endEpochMillis, Histogram histogram);
}
