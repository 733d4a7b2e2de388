package couchbench.search;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A freshness writer's search for its write: found, not yet (stale), another hit, a refusal; and the counts. */
class FreshnessTest {

  private final Write write = Write.of("db", 42, new SplittableRandom(1), false);

  @Test
  void shouldSearchForTheWritesOwnWordWhichNoOtherWriteHas() {
    assertEquals("bibibibibibibikifi", write.token());
    assertTrue(write.body().contains("\"title\":\"bibibibibibibikifi "), write.body());
    assertEquals("/i/_design/search/_nouveau/docs?q=title%3Abibibibibibibikifi&limit=1&update=false",
        Freshness.path("i", write, false));
  }

  @Test
  void shouldTellFoundFromNotYetFromWrongAndCountTheStaleSearches() {
    Freshness freshness = new Freshness();

    assertEquals(Freshness.NOT_YET, freshness.verdict(bytes("{\"total_hits\":0,\"hits\":[]}"), write));
    assertEquals(Freshness.FOUND, freshness.verdict(bytes("{\"total_hits\":1,\"hits\":[{\"id\":\"write-000000042\"}]}"),
        write));
    assertEquals("a hit that is not the write write-000000042: doc000001", freshness.verdict(
        bytes("{\"total_hits\":1,\"hits\":[{\"id\":\"doc000001\"}]}"), write));
    assertEquals("refused: service unavailable: Search service unavailable.", freshness.verdict(
        bytes("{\"error\":\"service unavailable\",\"reason\":\"Search service unavailable.\"}"), write));
    freshness.ended(true);
    assertEquals(new SearchFigures.Freshness(4, 1, 1, 0), freshness.figures());
  }

  private static byte[] bytes(String json) {
    return json.getBytes(StandardCharsets.UTF_8);
  }
}
