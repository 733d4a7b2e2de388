package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.results.Histograms;
import couchbench.startup.Settings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.BooleanSupplier;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** A staircase recorded into by several threads at once, as Gatling's event loops do. */
class StaircaseTest {

  private static final int THREADS = 4;
  private static final int OPERATIONS = 10_000;

  @Test
  void shouldAddUpWhatEveryThreadRecordedIntoEachStepAndNothingOfTheStepBefore() throws Exception {
    CurvePlan plan = CurvePlan.from(Settings.of(Map.of("targets", "1000,2000", "settleSeconds", "0",
        "stepSeconds", "2"), Map.of())).orElseThrow();
    List<String> lines = new CopyOnWriteArrayList<>();
    Staircase staircase = new Staircase(plan, "memcache", THREADS, lines::add);

    staircase.begin();
    // Step 1: thread t's operations all take t+1 ms from their intended start, and t+1 ms less 500 us from the send.
    recordFromEveryThread(staircase, 1);
    waitFor(() -> staircase.steps().size() == 1);
    Thread.sleep(200); // step 2 starts a moment after step 1 is judged
    // Step 2: each takes ten times as long.
    recordFromEveryThread(staircase, 10);
    waitFor(() -> !staircase.running());

    List<StepFigures> steps = staircase.steps();
    assertEquals(2, steps.size(), lines.toString());
    for (int step = 0; step < 2; step++) {
      long scale = step == 0 ? 1 : 10;
      StepFigures figures = steps.get(step);
      Histogram intended = Histograms.decode(figures.intendedMicros());
      Histogram actual = Histograms.decode(figures.actualMicros());
      assertEquals(THREADS * OPERATIONS, figures.ok(), "step " + (step + 1) + ": every thread's operations");
      assertEquals(THREADS * OPERATIONS, intended.getTotalCount());
      assertEquals(THREADS * OPERATIONS, actual.getTotalCount());
      assertEquals(1000 * scale, intended.getMinValue(), 1000 * scale / 100.0, "thread 0's, step " + (step + 1));
      assertEquals(1000 * scale * THREADS, intended.getMaxValue(), 1000 * scale * THREADS / 100.0,
          "thread 3's, and none of step 1's in step 2");
      assertEquals(1000 * scale * 2, intended.getValueAtPercentile(50), 1000 * scale * 2 / 100.0,
          "a quarter of the operations in each thread");
      assertEquals(1000 * scale - 500, actual.getMinValue(), 1000 * scale / 100.0);
      assertEquals(THREADS * OPERATIONS / 2.0, figures.achieved(), 0.001, "in the step's 2 measured seconds");
    }
  }

  private static void recordFromEveryThread(Staircase staircase, long scale) throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      long latencyNanos = (t + 1) * scale * 1_000_000;
      Thread thread = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          return;
        }
        for (int operation = 0; operation < OPERATIONS; operation++) {
          long end = System.nanoTime();
          staircase.record(true, false, end - latencyNanos, end - latencyNanos + 500_000, end);
        }
      });
      thread.start();
      threads.add(thread);
    }
    go.countDown();
    for (Thread thread : threads) {
      thread.join();
    }
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!condition.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "the step was not judged within 30 s");
      Thread.sleep(20);
    }
  }
}
