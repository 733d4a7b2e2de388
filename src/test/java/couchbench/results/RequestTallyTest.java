package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RequestTallyTest {

  @Test
  void shouldTallyPassedRequestsTimesAndTheSpanOfAll() {
    // Three transactions of 10, 20 and 30 ms and two failures, the last ending 1 s after the first began.
    RequestTally tally = RequestTally.EMPTY
        .with(1000, 1010, true)
        .with(1005, 1025, true)
        .with(1030, 1900, false)
        .with(1020, 1050, true)
        .with(1990, 2000, false);

    assertEquals(new RequestTally(3, 2, 60, 10, 30, 1000, 2000), tally);
    assertEquals(1000, tally.spanMillis());
    assertEquals(0, RequestTally.EMPTY.spanMillis());
  }
}
