package couchbench.versus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CouchVsMemcache's parameters: the fields of a record, and where each round's key files go. */
class VersusPlanTest {

  @Test
  void shouldRefuseMoreFieldsThanAMultiGetLineHolds() {
    SettingsException e = assertThrows(SettingsException.class,
        () -> VersusPlan.from(Settings.of(Map.of("fields", "101"), Map.of())));
    assertEquals("-Dfields=101 is more than 100: give -Dfields between 0 (no record assembly) and 100", e.getMessage());
    VersusPlan plan = VersusPlan.from(Settings.of(Map.of(), Map.of()));
    assertEquals(10, plan.fields());
    assertEquals(Path.of("data/keys/memcache.csv"), plan.memcacheKeys(1));
    assertEquals(Path.of("data/keys/round-2/couchdb.csv"),
        VersusPlan.from(Settings.of(Map.of("rounds", "2"), Map.of())).couchdbKeys(2), "each round its own key files");
  }

  @Test
  void shouldRefuseAStaircaseItWouldNotClimbAndPointToTheSimulationsThatDo() {
    assertEquals("-Dtargets: CouchVsMemcache runs its phases back to back, as the seed did; for the curve of both"
        + " systems give Workload -Dtargets, or CouchGet and MemGet one after the other", assertThrows(
            SettingsException.class, () -> VersusPlan.from(Settings.of(Map.of("targets", "100"), Map.of())))
        .getMessage());
  }
}
