package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SyncPlanTest {

  @Test
  void shouldPutTenClientsInEachDatabaseAndEditAsManyDocumentsOnTheServerAsThereAreClients() {
    SyncPlan plan = SyncPlan.from(Settings.of(Map.of("clients", "25", "syncInterval", "0.5"), Map.of()));

    assertEquals(3, plan.databases());
    assertEquals(2, plan.databaseOf(24));
    assertEquals("couchbench_sync_2", plan.database(2));
    assertEquals(25, plan.serverEdits());
    assertEquals(Duration.ofMillis(500), plan.syncInterval());
    assertEquals("25 clients in 3 databases of 10, each creating 10 documents and syncing 5 times, 0.5 s apart,"
        + " editing 2 documents before each sync after the first; 25 edits on the server", plan.describe());
  }

  @Test
  void shouldGiveEachInjectorItsShareOfTheClientsAndEditsInDatabasesOfItsOwn() {
    SyncPlan second = SyncPlan.from(Settings.of(Map.of("clients", "25", "injector", "1/2"), Map.of()));

    assertEquals(12, second.clients());
    assertEquals(12, second.serverEdits());
    assertEquals("couchbench_sync_injector1of2_0", second.database(0));
    SettingsException refused = assertThrows(SettingsException.class, () -> SyncPlan.from(Settings.of(Map.of(
        "clients", "1", "injector", "1/2"), Map.of())));
    assertTrue(refused.getMessage().startsWith("-Dclients=1 leaves nothing to injector 1/2"), refused.getMessage());
  }
}
