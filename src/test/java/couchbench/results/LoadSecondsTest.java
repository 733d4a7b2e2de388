package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LoadSecondsTest {

  @Test
  void shouldCountEachRequestInTheSecondItEndedAndKeepTheSecondsWithoutAny() {
    LoadSeconds seconds = new LoadSeconds();
    seconds.record("get", 10_000, true, 2_000_000);
    seconds.record("get", 10_999, true, 4_000_000);
    seconds.record("get", 10_500, false, 9_000_000);
    seconds.record("get", 13_001, true, 1_000_000);

    List<LoadSeconds.Second> all = seconds.seconds(SeriesKind.REQUEST);
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
    seconds.add("get", 19_700, 20_003, true, ok);
    seconds.add("get", 20_003, 21_004, false, ko);
    // A tick 600 ms late, after a pause of the JVM's: still its own second.
    seconds.add("get", 21_004, 22_600, true, ok);
    seconds.add("get", 22_600, 23_002, false, Outcomes.newCompact());

    List<LoadSeconds.Second> all = seconds.seconds(SeriesKind.REQUEST);
    assertEquals(List.of(19L, 20L, 21L), all.stream().map(LoadSeconds.Second::epochSecond).toList(),
        "a tick with nothing in it adds no second: " + all);
    assertEquals(List.of(2L, 0L, 2L), all.stream().map(LoadSeconds.Second::ok).toList());
    assertEquals(List.of(0L, 1L, 0L), all.stream().map(LoadSeconds.Second::ko).toList());
  }

  @Test
  void shouldKeepTheNamesSaidApartInASeriesOfTheirKindAndTheRestAsTheLoadsRequests() {
    LoadSeconds seconds = new LoadSeconds();
    seconds.apart(SeriesKind.NOTIFICATION, List.of("notification continuous"));
    seconds.record("write", 10_100, true, 90_000_000_000L);
    seconds.record("notification continuous", 10_200, true, 20_000_000);
    seconds.record("notification continuous", 11_200, false, 20_000_000);

    List<LoadSeconds.Second> writes = seconds.seconds(SeriesKind.REQUEST);
    List<LoadSeconds.Second> notified = seconds.seconds(SeriesKind.NOTIFICATION);
    assertEquals(List.of(SeriesKind.REQUEST, SeriesKind.NOTIFICATION), seconds.kinds());
    assertEquals(1, writes.size());
    assertEquals(90_000, writes.get(0).okTimes().getMaxValue() / 1e6, 90, "a write's time alone");
    assertEquals(List.of(1L, 0L), notified.stream().map(LoadSeconds.Second::ok).toList());
    assertEquals(List.of(0L, 1L), notified.stream().map(LoadSeconds.Second::ko).toList());
    assertEquals(20, notified.get(0).okTimes().getMaxValue() / 1e6, 0.1, "a notification's time alone");
    assertEquals(List.of(), seconds.seconds(SeriesKind.LAG), "none of a kind the run did not have");
  }
}
