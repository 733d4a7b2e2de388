package couchbench.rounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

  @Test
  void shouldGiveTheMiddleRoundAndTheRangeOfAnOddNumber() {
    assertEquals(new Spread(9_200, 8_458, 13_100, 3), Spread.of(List.of(13_100, 8_458, 9_200)));
  }

  @Test
  void shouldGiveTheMeanOfTheTwoMiddleRoundsOfAnEvenNumber() {
    assertEquals(new Spread(2.5, 1, 10, 4), Spread.of(List.of(10.0, 1.0, 3.0, 2.0)));
  }

  @Test
  void shouldGiveOneRoundAsItsOwnMedianWithNoRange() {
    assertEquals(new Spread(357.5, 357.5, 357.5, 1), Spread.once(357.5));
  }

  @Test
  void shouldRefuseNoRoundsAndValuesThatAreNotNumbers() {
    assertThrows(IllegalArgumentException.class, () -> Spread.of(List.of()));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Spread.of(List.of(1.0, Double.NaN)));
    assertTrue(e.getMessage().contains("NaN"), e.getMessage());
  }
}
