package couchbench.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WriteLedgerTest {

  private final WriteLedger ledger = new WriteLedger(2, 3);

  @Test
  void shouldTimeAWriteSeenAfterItsAcknowledgementFromTheAcknowledgementAndFromTheSend() {
    ledger.sent(0, 1, 1_000);
    ledger.acknowledged(0, 1, 4_000);

    assertEquals(new Arrival(9_000, 6_000, false, 4_000), ledger.arrived(0, 1, 10_000),
        "9 us from the send, 6 from the acknowledgement, where its report entry starts");
  }

  @Test
  void shouldCountAWriteSeenBeforeItsAcknowledgementApartTimedFromTheSendAlone() {
    ledger.sent(1, 0, 1_000);
    assertEquals(new Arrival(2_000, 0, true, 3_000), ledger.arrived(1, 0, 3_000), "no acknowledgement yet");

    // The reply came after the change was read, before the reader looked it up: seen before it all the same.
    ledger.acknowledged(1, 0, 5_000);
    assertEquals(new Arrival(3_000, 0, true, 4_000), ledger.arrived(1, 0, 4_000));
    assertEquals(new Arrival(6_000, 2_000, false, 5_000), ledger.arrived(1, 0, 7_000));
  }

  @Test
  void shouldAddUpArrivalsWithTheEarlyOnesApartAndTheLagFromTheSendNeverBelowTheLagFromTheAcknowledgement() {
    ArrivalTimes times = new ArrivalTimes();
    for (int write = 0; write < 3; write++) {
      ledger.sent(0, write, 1_000_000);
    }
    ledger.acknowledged(0, 0, 3_000_000);
    ledger.acknowledged(0, 1, 3_000_000);
    times.add(ledger.arrived(0, 0, 10_000_000));
    times.add(ledger.arrived(0, 1, 20_000_000));
    times.add(ledger.arrived(0, 2, 2_000_000));

    assertEquals(3, times.count());
    assertEquals(1, times.beforeAck(), "write 2, seen before any reply");
    assertEquals(3, times.fromAckMicros().getTotalCount(), "the early one as 0");
    assertEquals(0, times.fromAckMicros().getMinValue());
    assertEquals(17_000, times.fromAckMicros().getMaxValue(), 17);
    assertEquals(1_000, times.fromSentMicros().getMinValue(), 1);
    for (double percentile : new double[] {0, 50, 99, 100}) {
      assertTrue(times.fromSentMicros().getValueAtPercentile(percentile)
          >= times.fromAckMicros().getValueAtPercentile(percentile), "p" + percentile);
    }
  }

  @Test
  void shouldCountEachWriteOnceAcknowledgedOrFailedAndKnowWhenEveryWriterIsDone() {
    ledger.acknowledged(0, 0, 1_000);
    ledger.acknowledged(0, 0, 2_000);
    ledger.failed(0, 0);
    ledger.failed(0, 1);
    ledger.failed(0, 1);
    ledger.acknowledged(0, 1, 3_000);
    ledger.acknowledged(1, 2, 5_000);

    assertEquals(2, ledger.acknowledgedCount());
    assertEquals(1, ledger.failedCount());
    assertEquals(1_000, ledger.acknowledgedAt(0, 0), "the first acknowledgement stands");
    assertFalse(ledger.isAcknowledged(0, 1), "failed stays failed");
    assertEquals(5_000, ledger.lastAcknowledged());
    assertTrue(ledger.holds(1, 2));
    assertFalse(ledger.holds(2, 0));
    assertFalse(ledger.holds(0, 3));
    ledger.writerDone();
    assertFalse(ledger.finished());
    long before = System.nanoTime();
    ledger.writerDone();
    assertTrue(ledger.finished());
    assertTrue(ledger.finishedAt() >= before);
  }
}
