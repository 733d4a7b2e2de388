package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

  /** Keeps every interval handed over. */
  private record Taken(String tag, long start, long end, long count) {}

  @Test
  void shouldGivePercentilesInMicrosecondsToHdrHistogramsPrecision() {
    LatencyRecorder recorder = new LatencyRecorder();
    for (int micros = 1; micros <= 1000; micros++) {
      recorder.record("memcache get", true, micros * 1000L);
    }
    recorder.record("memcache get", false, 5_000_000L);
    recorder.takeInterval(0, 5000, IntervalSink.NONE);

    Outcomes get = recorder.totals().get("memcache get");
    assertEquals(1000, get.ok().getTotalCount());
    assertEquals(1, get.ko().getTotalCount());
    Results.Latency latency = Entries.latency(get.ok());
    assertEquals("us", latency.unit());
    // HdrHistogram with 3 significant digits: each figure within 0.1% of the exact one.
    double[] exact = {500.5, 500, 900, 990, 999, 1000, 1000};
    double[] figures = {latency.mean(), latency.p50(), latency.p90(), latency.p99(), latency.p999(), latency.p9999(),
        latency.max()};
    for (int i = 0; i < exact.length; i++) {
      assertEquals(exact[i], figures[i], exact[i] * 0.001, "figure " + i);
    }
  }

  @Test
  void shouldHandEachIntervalOverTaggedAndCountItOnceInTheTotals() {
    LatencyRecorder recorder = new LatencyRecorder();
    List<Taken> taken = new ArrayList<>();
    IntervalSink sink = (tag, start, end, histogram) -> taken.add(new Taken(tag, start, end, histogram.getTotalCount()));
    recorder.record("memcache set", true, 80_000);
    recorder.record("memcache set", true, 90_000);
    recorder.takeInterval(1000, 6000, sink);
    recorder.record("memcache set", false, 1_000_000);
    recorder.takeInterval(6000, 11000, sink);

    assertEquals(List.of(new Taken("request:memcache_set:ok", 1000, 6000, 2),
        new Taken("request:memcache_set:ko", 1000, 6000, 0),
        new Taken("request:memcache_set:ok", 6000, 11000, 0),
        new Taken("request:memcache_set:ko", 6000, 11000, 1)), taken);
    Outcomes set = recorder.totals().get("memcache set");
    assertEquals(2, set.ok().getTotalCount());
    assertEquals(1, set.ko().getTotalCount());
  }

  @Test
  void shouldLoseNoRecordTakenWhileThreadsRecord() throws Exception {
    LatencyRecorder recorder = new LatencyRecorder();
    int perThread = 200_000;
    CountDownLatch start = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 2; t++) { // two recording threads, as two event loops
      Thread thread = new Thread(() -> {
        try {
          start.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int i = 0; i < perThread; i++) {
          recorder.record("memcache get", i % 10 != 0, 50_000 + i);
        }
      });
      thread.start();
      threads.add(thread);
    }
    long[] handedOver = new long[1];
    IntervalSink sink = (tag, s, e, histogram) -> handedOver[0] += histogram.getTotalCount();
    start.countDown();
    while (threads.stream().anyMatch(Thread::isAlive)) {
      recorder.takeInterval(0, 1, sink);
    }
    recorder.takeInterval(0, 1, sink);

    Map<String, Outcomes> totals = recorder.totals();
    Histogram ok = totals.get("memcache get").ok();
    Histogram ko = totals.get("memcache get").ko();
    assertEquals(2L * perThread, ok.getTotalCount() + ko.getTotalCount());
    assertEquals(2L * perThread / 10, ko.getTotalCount());
    assertEquals(2L * perThread, handedOver[0], "every record in exactly one interval");
  }
}
