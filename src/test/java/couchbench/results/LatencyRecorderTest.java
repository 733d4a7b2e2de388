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
    recorder.takeSecond(0, 1000, new LoadSeconds(), LiveRoute.current());
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
    LoadSeconds seconds = new LoadSeconds();
    recorder.record("memcache set", true, 80_000);
    recorder.takeSecond(1000, 2000, seconds, LiveRoute.current());
    recorder.record("memcache set", true, 90_000);
    recorder.takeSecond(2000, 3000, seconds, LiveRoute.current());
    recorder.takeInterval(1000, 6000, sink);
    recorder.record("memcache set", false, 1_000_000);
    recorder.takeSecond(6000, 11000, seconds, LiveRoute.current());
    recorder.takeInterval(6000, 11000, sink);

    assertEquals(List.of(new Taken("request:memcache_set:ok", 1000, 6000, 2),
        new Taken("request:memcache_set:ko", 6000, 11000, 1)), taken, "an outcome without a time hands nothing over");
    Outcomes set = recorder.totals().get("memcache set");
    assertEquals(2, set.ok().getTotalCount());
    assertEquals(1, set.ko().getTotalCount());
    assertEquals(List.of(1L, 1L), seconds.seconds(SeriesKind.REQUEST).stream().limit(2).map(LoadSeconds.Second::ok)
        .toList(), "each second in the run's seconds");
  }

  @Test
  void shouldHandNothingOverForANameOrAThreadIdleInASecond() throws Exception {
    LatencyRecorder recorder = new LatencyRecorder();
    List<Taken> taken = new ArrayList<>();
    IntervalSink sink = (tag, start, end, histogram) -> taken.add(new Taken(tag, start, end,
        histogram.getTotalCount()));
    // A warm-up name recorded once on another thread (an event loop that then goes quiet), then the load's own.
    Thread warmUp = new Thread(() -> recorder.record("memcache set warm-up", true, 70_000));
    warmUp.start();
    warmUp.join();
    recorder.record("memcache set", true, 80_000);
    recorder.takeSecond(0, 1000, new LoadSeconds(), LiveRoute.current());
    recorder.takeInterval(0, 1000, sink);
    for (int second = 1; second <= 5; second++) {
      recorder.record("memcache set", true, 80_000 + second);
      recorder.takeSecond(second * 1000L, second * 1000L + 1000, new LoadSeconds(), LiveRoute.current());
      recorder.takeInterval(second * 1000L, second * 1000L + 1000, sink);
    }

    assertEquals(List.of(new Taken("request:memcache_set_warm-up:ok", 0, 1000, 1),
        new Taken("request:memcache_set:ok", 0, 1000, 1), new Taken("request:memcache_set:ok", 1000, 2000, 1),
        new Taken("request:memcache_set:ok", 2000, 3000, 1), new Taken("request:memcache_set:ok", 3000, 4000, 1),
        new Taken("request:memcache_set:ok", 4000, 5000, 1), new Taken("request:memcache_set:ok", 5000, 6000, 1)),
        taken, "the idle warm-up name and the KO outcomes hand nothing over, so nothing is added for them");
    assertEquals(7, recorder.counts().requests());
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
    LoadSeconds seconds = new LoadSeconds();
    while (threads.stream().anyMatch(Thread::isAlive)) {
      recorder.takeSecond(0, 1, seconds, LiveRoute.current());
      recorder.takeInterval(0, 1, sink);
    }
    recorder.takeSecond(0, 1, seconds, LiveRoute.current());
    recorder.takeInterval(0, 1, sink);

    Map<String, Outcomes> totals = recorder.totals();
    Histogram ok = totals.get("memcache get").ok();
    Histogram ko = totals.get("memcache get").ko();
    assertEquals(2L * perThread, ok.getTotalCount() + ko.getTotalCount());
    assertEquals(2L * perThread / 10, ko.getTotalCount());
    assertEquals(2L * perThread, handedOver[0], "every record in exactly one interval");
    List<LoadSeconds.Second> second = seconds.seconds(SeriesKind.REQUEST);
    assertEquals(2L * perThread, second.get(0).ok() + second.get(0).ko(), "and in exactly one second");
  }
}
