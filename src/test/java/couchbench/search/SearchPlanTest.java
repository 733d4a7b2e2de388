package couchbench.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SearchPlanTest {

  @Test
  void shouldAskEveryClassByDefaultAndTakeAMixWithWrites() {
    assertEquals(SearchClass.values().length, plan(Map.of()).shares().size());
    SearchPlan mixed = plan(Map.of("mix", "bookmark:3, term:1, write:2"));

    assertEquals(List.of(SearchClass.BOOKMARK, SearchClass.TERM), List.copyOf(mixed.shares().keySet()));
    assertEquals(2, mixed.mix().writeShare());
    assertTrue(mixed.describe().endsWith("shares: bookmark:3,term:1,write:2"), mixed.describe());
  }

  @Test
  void shouldSearchForTheDurationUnlessRequestsAreGivenAndWriteForItEither() {
    SearchPlan timed = plan(Map.of("duration", "20", "rate", "5"));
    SearchPlan counted = plan(Map.of("duration", "20", "rate", "5", "requests", "40"));

    assertEquals(0, timed.requests(), "every user searches for -Dduration");
    assertEquals(40, counted.requests());
    assertEquals(Duration.ofSeconds(20), counted.duration(), "the freshness writers write for it");
    assertEquals(Duration.ofSeconds(30), plan(Map.of("rate", "5")).duration());
  }

  @Test
  void shouldRefuseWhatCannotRunInOneLineNamingTheSetting() {
    assertMessage("-Dsearches=term,fuzzy: no search class fuzzy; there are term, phrase,",
        Map.of("searches", "term,fuzzy"));
    assertMessage("-Dmix=write:1: give at least one search class beside the writes, e.g. term:9,write:1",
        Map.of("mix", "write:1"));
    assertMessage("-Dinjector: Search runs on one injector", Map.of("injector", "1/2"));
    assertMessage("-Drate=-1: give the freshness writers' documents a second", Map.of("rate", "-1"));
  }

  private static void assertMessage(String start, Map<String, String> properties) {
    SearchException refused = assertThrows(SearchException.class, () -> plan(properties));
    assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
  }

  private static SearchPlan plan(Map<String, String> properties) {
    return SearchPlan.from(Settings.of(properties, Map.of()));
  }
}
