package couchbench.memcache.internal;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gatling.commons.util.GatlingVersion;
import org.junit.jupiter.api.Test;

class GatlingVersionCheckTest {

  @Test
  void shouldBeBuiltForTheGatlingOnTheClasspath() {
    // A pom that moves to another Gatling fails here until the protocol is ported and the constant moved.
    assertEquals(GatlingVersion.ThisVersion().fullVersion(), GatlingVersionCheck.BUILT_FOR);
    assertDoesNotThrow(GatlingVersionCheck::requireBuiltForVersion);
  }

  @Test
  void shouldStopOnAnotherVersionWithOneLineNamingBoth() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> GatlingVersionCheck.requireBuiltFor("3.16.0"));
    assertEquals("couchbench's memcache protocol is built for Gatling 3.15.1, this run has Gatling 3.16.0: run it"
        + " with Gatling 3.15.1 (the pom's gatling.version), or port couchbench.memcache.internal to 3.16.0",
        e.getMessage());
  }
}
