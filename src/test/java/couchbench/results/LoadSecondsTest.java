package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LoadSecondsTest {

  @Test
  void shouldCountEachRequestInTheSecondItEndedAndKeepTheSecondsWithoutAny() {
    LoadSeconds seconds = new LoadSeconds();
    seconds.record(10_000, true, 2_000_000);
    seconds.record(10_999, true, 4_000_000);
    seconds.record(10_500, false, 9_000_000);
    seconds.record(13_001, true, 1_000_000);

    List<LoadSeconds.Second> all = seconds.seconds();
    assertEquals(List.of(10L, 11L, 12L, 13L), all.stream().map(LoadSeconds.Second::epochSecond).toList());
    assertEquals(List.of(2L, 0L, 0L, 1L), all.stream().map(LoadSeconds.Second::ok).toList());
    assertEquals(List.of(1L, 0L, 0L, 0L), all.stream().map(LoadSeconds.Second::ko).toList());
    assertEquals(4.0, all.get(0).okTimes().getMaxValue() / 1e6, 0.01, "failed requests' times are not OK times");
  }

  @Test
  void shouldTakeTheClientsTicksIntoTheSecondHoldingTheirMiddle() {
    LoadSeconds seconds = new LoadSeconds();
    Histogram ok = Outcomes.newCompact();
    ok.recordValue(3_000_000);
    ok.recordValue(5_000_000);
    Histogram ko = Outcomes.newCompact();
    ko.recordValue(1_000);
    // The first tick: from the load's start at 19.7 s to the first whole second, 3 ms late.
    seconds.add(19_700, 20_003, true, ok);
    seconds.add(20_003, 21_004, false, ko);
    // A tick 600 ms late, after a pause of the JVM's: still its own second.
    seconds.add(21_004, 22_600, true, ok);
    seconds.add(22_600, 23_002, false, Outcomes.newCompact());

    List<LoadSeconds.Second> all = seconds.seconds();
    assertEquals(List.of(19L, 20L, 21L), all.stream().map(LoadSeconds.Second::epochSecond).toList(),
        "a tick with nothing in it adds no second: " + all);
    assertEquals(List.of(2L, 0L, 2L), all.stream().map(LoadSeconds.Second::ok).toList());
    assertEquals(List.of(0L, 1L, 0L), all.stream().map(LoadSeconds.Second::ko).toList());
  }
}
