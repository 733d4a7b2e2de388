package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicateSummaryTest {

  @Test
  void shouldNameEachStretchOfSecondsWhoseWritesTookOverASecondToReachTheirTarget() {
    List<ReplicateFigures.LagSecond> seconds = List.of(second(10, 90_000), second(11, 7_900_000),
        second(12, 5_000_000), second(13, 1_200_000), second(14, 80_000), second(20, 2_000_000),
        second(22, 3_000_000));

    assertEquals(List.of(
        "Writes acknowledged from 11 s to 14 s into the load took up to 7.9 s to reach their target.",
        "Writes acknowledged from 20 s to 21 s into the load took up to 2.0 s to reach their target.",
        "Writes acknowledged from 22 s to 23 s into the load took up to 3.0 s to reach their target."),
        ReplicateSummary.gaps(seconds));
    assertEquals(List.of(), ReplicateSummary.gaps(List.of(second(0, 1_000_000), second(1, 50))));
  }

  private static ReplicateFigures.LagSecond second(long second, long maxLagMicros) {
    return new ReplicateFigures.LagSecond(second, 10, maxLagMicros);
  }
}
