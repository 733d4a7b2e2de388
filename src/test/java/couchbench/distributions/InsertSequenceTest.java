package couchbench.distributions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class InsertSequenceTest {

  @Test
  void shouldHandOutNumbersFromTheFirstNewOne() {
    InsertSequence inserts = new InsertSequence(10);
    assertEquals(9, inserts.lastAcknowledged());
    assertEquals(List.of(10L, 11L, 12L), List.of(inserts.next(), inserts.next(), inserts.next()));
    assertEquals(9, inserts.lastAcknowledged());
  }

  @Test
  void shouldMoveLastAcknowledgedOnlyOverNumbersAllAcknowledged() {
    InsertSequence inserts = new InsertSequence(10);
    long first = inserts.next();
    long second = inserts.next();
    long third = inserts.next();
    inserts.acknowledge(third);
    assertEquals(9, inserts.lastAcknowledged());
    inserts.acknowledge(first);
    assertEquals(10, inserts.lastAcknowledged());
    inserts.acknowledge(second);
    assertEquals(12, inserts.lastAcknowledged());
  }

  @Test
  void shouldRefuseANumberNotHandedOutOrAcknowledgedTwice() {
    InsertSequence inserts = new InsertSequence(10);
    long first = inserts.next();
    long second = inserts.next();
    inserts.acknowledge(second);
    assertThrows(IllegalArgumentException.class, () -> inserts.acknowledge(second));
    assertThrows(IllegalArgumentException.class, () -> inserts.acknowledge(12));
    assertThrows(IllegalArgumentException.class, () -> inserts.acknowledge(9));
    inserts.acknowledge(first);
    assertThrows(IllegalArgumentException.class, () -> inserts.acknowledge(first));
  }

  @Test
  void shouldRefuseMoreThanTheWindowWaitingBehindOneNumber() {
    InsertSequence inserts = new InsertSequence(0);
    inserts.next(); // 0, never acknowledged
    for (int i = 1; i < InsertSequence.WINDOW; i++) {
      inserts.acknowledge(inserts.next());
    }
    long over = inserts.next();
    assertEquals("key number 1048576: outside the window of 1048576 numbers from key number 0, the oldest not"
        + " acknowledged", assertThrows(IllegalStateException.class, () -> inserts.acknowledge(over)).getMessage());
    inserts.acknowledge(0);
    assertEquals(InsertSequence.WINDOW - 1, inserts.lastAcknowledged());
    inserts.acknowledge(over);
    assertEquals(over, inserts.lastAcknowledged());
  }

  @Test
  void shouldCountEveryInsertOfThreadsAtOnce() throws InterruptedException {
    InsertSequence inserts = new InsertSequence(1000);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Thread thread = new Thread(() -> {
        for (int i = 0; i < 100_000; i++) {
          inserts.acknowledge(inserts.next());
        }
      });
      thread.start();
      threads.add(thread);
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(1000 + 400_000 - 1, inserts.lastAcknowledged());
  }
}
