package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WallRefusalTest {

  // CouchDB 3.5.0's replies, seen with curl at max_dbs_open 10 with 60 databases read by 20 clients at once.
  @Test
  void shouldKnowCouchDbsTwoRepliesForWantOfAnOpenDatabaseByTheirReason() {
    assertEquals(Optional.of(WallRefusal.ALL_DBS_ACTIVE), of("{\"error\":\"error\",\"reason\":\"all_dbs_active\"}"));
    assertEquals(Optional.of(WallRefusal.NO_SHARDS_OPENED), of("{\"error\":\"internal_server_error\",\"reason\":\"No"
        + " DB shards could be opened.\",\"ref\":1939811338}"));
    assertEquals("refused all_dbs_active (/s)", WallRefusal.ALL_DBS_ACTIVE.column());
    assertEquals("refused No DB shards could be opened (/s)", WallRefusal.NO_SHARDS_OPENED.column());
  }

  @Test
  void shouldTakeNoOtherReplyForOne() {
    assertEquals(Optional.empty(), of("{\"error\":\"unknown_error\",\"reason\":\"function_clause\"}"));
    assertEquals(Optional.empty(), of("<html>500</html>"));
    assertEquals(Optional.empty(), of(""));
  }

  private static Optional<WallRefusal> of(String body) {
    return WallRefusal.of(body.getBytes(StandardCharsets.UTF_8));
  }
}
