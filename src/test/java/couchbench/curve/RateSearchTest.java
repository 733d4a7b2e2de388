package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;
import org.junit.jupiter.api.Test;

class RateSearchTest {

  @Test
  void shouldDoubleWhileTheGoalIsMetThenBisectToWithinTenPercent() {
    List<Double> asked = run(RateSearch.auto(100, 20, 1), rate -> rate <= 1500);

    assertEquals(List.of(100.0, 200.0, 400.0, 800.0, 1600.0, 1200.0, 1400.0, 1500.0), asked);
  }

  @Test
  void shouldHalveWhenTheFirstStepMissesAndStopBelowItsLowestRate() {
    assertEquals(List.of(100.0, 50.0, 25.0, 38.0, 32.0, 28.0, 30.0), run(RateSearch.auto(100, 20, 1), rate -> rate <= 30));
    assertEquals(List.of(4.0, 2.0, 1.0), run(RateSearch.auto(4, 20, 1), rate -> false));
    RateSearch tooFew = RateSearch.auto(100, 20, 10);
    assertEquals(List.of(100.0, 50.0, 25.0, 12.5), run(tooFew, rate -> false));
    assertTrue(tooFew.highestMet().isEmpty());
  }

  @Test
  void shouldStopWhenTheRoundedMiddleIsARateTriedAlready() {
    assertEquals(List.of(100.0, 50.0, 25.0, 12.5, 6.25, 9.0, 8.0), run(RateSearch.auto(100, 20, 1), rate -> rate <= 8));
  }

  @Test
  void shouldStopAtItsMostSteps() {
    RateSearch search = RateSearch.auto(100, 3, 1);

    assertEquals(List.of(100.0, 200.0, 400.0), run(search, rate -> true));
    assertEquals(400.0, search.highestMet().getAsDouble());
  }

  @Test
  void shouldRunEveryStepOfAFixedStaircaseWhateverItMeets() {
    RateSearch search = RateSearch.fixed(List.of(1000.0, 2000.0, 4000.0));

    assertEquals(List.of(1000.0, 2000.0, 4000.0), run(search, rate -> rate != 2000));
    assertEquals(4000.0, search.highestMet().getAsDouble(), "the highest met, even above one missed");
    assertTrue(RateSearch.fixed(List.of(5.0)).next(5, false).isEmpty());
  }

  private static List<Double> run(RateSearch search, DoublePredicate meets) {
    List<Double> asked = new ArrayList<>();
    OptionalDouble rate = OptionalDouble.of(search.first());
    while (rate.isPresent()) {
      asked.add(rate.getAsDouble());
      rate = search.next(rate.getAsDouble(), meets.test(rate.getAsDouble()));
    }
    return asked;
  }
}
