package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplicatePlanTest {

  @Test
  void shouldReplicateOnceTenThousandDocumentsOnTheSameServerByDefault() {
    ReplicatePlan plan = plan(Map.of());

    assertFalse(plan.continuous());
    assertEquals(1, plan.jobs());
    assertEquals(10_000, plan.docs());
    assertEquals(0, plan.writes());
    assertEquals(Optional.empty(), plan.target());
    assertEquals("couchbench_replicate_source_0", plan.source(0));
    assertEquals("couchbench_replicate_target_0", plan.target(0));
    assertEquals("1 one-shot replication of 10,000 documents each, to the same server", plan.describe());
  }

  @Test
  void shouldWriteAThousandDocumentsIntoEachSourceOfContinuousReplicationsToAnotherServer() {
    ReplicatePlan plan = plan(Map.of("mode", "continuous", "jobs", "3", "couchdb.target", "http://127.0.0.1:6984/"));

    assertTrue(plan.continuous());
    assertEquals(1000, plan.writes());
    assertEquals(Optional.of(URI.create("http://127.0.0.1:6984")), plan.target());
    assertEquals("3 continuous replications of 10,000 documents each, 1,000 more written into each source at 100/s"
        + " over all while they run, to http://127.0.0.1:6984", plan.describe());
  }

  @Test
  void shouldRefuseWhatCannotRunInOneLineNamingTheSettingButNeverALogin() {
    assertMessage("-Dmode=push: give oneshot", Map.of("mode", "push"));
    assertMessage("-Dwrites with -Dmode=oneshot", Map.of("writes", "5"));
    assertMessage("-Drate=0.0: give the writes a second", Map.of("mode", "continuous", "rate", "0"));
    assertMessage("-Dcouchdb.target carries a login: give the target server's URL",
        Map.of("couchdb.target", "http://admin:secret@h:5984"));
    assertMessage("-Dcouchdb.target=http://h:5984/db: give", Map.of("couchdb.target", "http://h:5984/db"));
    assertMessage("-Dinjector: Replicate runs on one injector", Map.of("injector", "0/2"));
  }

  private static void assertMessage(String start, Map<String, String> properties) {
    ReplicationException refused = assertThrows(ReplicationException.class, () -> plan(properties));
    assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
    assertFalse(refused.getMessage().contains("secret"), refused.getMessage());
  }

  private static ReplicatePlan plan(Map<String, String> properties) {
    return ReplicatePlan.from(Settings.of(properties, Map.of()));
  }
}
