package couchbench.resources;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatsCountersTest {

  // The shape of CouchDB 3.5's _node/_local/_stats/couchdb: counters and histograms, nested, each with a "value".
  private static final String STATS = """
      {"auth_cache_hits":{"value":3,"type":"counter","desc":"number of auth cache hits"},
       "database_reads":{"value":1200,"type":"counter","desc":"number of times a document was read"},
       "request_time":{"value":{"min":0.5,"max":12.0,"percentile":[[50,1.0],[99,9.5]],
          "histogram":[[1.0,3],[10.0,1]],"n":4},"type":"histogram","desc":"length of a request"},
       "httpd":{"bulk_requests":{"value":7,"type":"counter","desc":"bulk requests"},
                "requests":{"value":98765,"type":"counter","desc":"HTTP requests"},
                "view_reads":{"value":0,"type":"counter","desc":"view reads"}},
       "database_writes":{"value":4.2e6,"type":"counter","desc":"number of times a database was changed"},
       "requests":{"value":-1,"type":"counter","desc":"a decoy at the top: not httpd's"}}
      """;

  @Test
  void shouldReadTheNamedCountersValuesAndNothingElse() throws IOException {
    Map<String, Double> values = StatsCounters.read(bytes(STATS), List.of("httpd/requests", "database_reads",
        "database_writes"));

    assertEquals(Map.of("httpd/requests", 98765.0, "database_reads", 1200.0, "database_writes", 4.2e6), values);
  }

  @Test
  void shouldLeaveOutACounterTheReplyLacksRatherThanReadItAsZero() throws IOException {
    Map<String, Double> values = StatsCounters.read(bytes("{\"httpd\":{\"bulk_requests\":{\"value\":7}}}"),
        List.of("httpd/requests", "httpd/bulk_requests"));

    assertEquals(Map.of("httpd/bulk_requests", 7.0), values);
  }

  @Test
  void shouldRefuseAReplyThatIsNotAJsonObjectOrEndsEarly() {
    for (String reply : List.of("<html>busy</html>", "[1,2]", "{\"httpd\":{\"requests\":{\"value\":5}")) {
      IOException refused = assertThrows(IOException.class, () -> StatsCounters.read(bytes(reply),
          List.of("httpd/requests")), reply);
      assertTrue(refused.getMessage().startsWith("what is not"), refused.getMessage());
    }
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
