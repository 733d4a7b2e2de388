package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SamplesTest {

  @Test
  void shouldGiveHttperfsFiguresOfTheValues() {
    Samples samples = new Samples();
    for (long v : new long[] {4, 1, 3, 2}) {
      samples.add(v);
    }

    Samples.Stats stats = samples.stats();

    assertEquals(new Samples.Stats(4, 1, 2.5, 4, 2.5, Math.sqrt(5 / 3.0)), stats);
    assertEquals(new Samples.Stats(4, 0.001, 0.0025, 0.004, 0.0025, Math.sqrt(5 / 3.0) / 1000),
        stats.dividedBy(1000));
  }

  @Test
  void shouldKeepEveryValueBeyondTheFirstArray() {
    Samples samples = new Samples();
    for (int i = 0; i < 5000; i++) {
      samples.add(i);
    }

    assertEquals(5000, samples.count());
    assertEquals(2499.5, samples.stats().median());
  }

  @Test
  void shouldGiveZerosWhenEmpty() {
    assertEquals(new Samples.Stats(0, 0, 0, 0, 0, 0), new Samples().stats());
  }
}
