package couchbench.rounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoundsTest {

  @Test
  void shouldRunOnceWithoutTheParameterAndKeepTheNames() {
    Rounds rounds = Rounds.from(Settings.of(Map.of(), Map.of()));

    assertEquals(Rounds.ONCE, rounds);
    assertFalse(rounds.repeated());
    assertEquals(List.of(1), rounds.numbers());
    assertEquals("bulk B=64 T=2", rounds.name("bulk B=64 T=2", 1));
  }

  @Test
  void shouldNameEachRoundApart() {
    Rounds rounds = Rounds.from(Settings.of(Map.of("rounds", "3"), Map.of()));

    assertTrue(rounds.repeated());
    assertEquals(List.of(1, 2, 3), rounds.numbers());
    assertEquals(List.of("memcache get round 1", "memcache get round 3"),
        List.of(rounds.name("memcache get", 1), rounds.name("memcache get", 3)));
    assertThrows(IllegalArgumentException.class, () -> rounds.name("memcache get", 4));
  }

  @Test
  void shouldNameTheParameterAndTheFixWhenTheCountIsWrong() {
    for (String wrong : List.of("0", "101", "three")) {
      SettingsException e = assertThrows(SettingsException.class,
          () -> Rounds.from(Settings.of(Map.of("rounds", wrong), Map.of())));
      assertTrue(e.getMessage().startsWith("-Drounds=" + wrong), e.getMessage());
    }
  }

  @Test
  void shouldReadARoundsNameBackToTheNameWithOneRound() {
    Rounds three = new Rounds(3);

    assertEquals("bulk B=64 T=2", three.withoutRound(three.name("bulk B=64 T=2", 3)));
    assertEquals("memcache get", three.withoutRound("memcache get"));
    assertEquals("get round 2", Rounds.ONCE.withoutRound("get round 2"), "one round: the name is the name");
  }
}
