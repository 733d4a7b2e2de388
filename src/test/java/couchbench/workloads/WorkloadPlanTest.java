package couchbench.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.distributions.Distribution;
import couchbench.startup.OneLineException;
import couchbench.startup.Settings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkloadPlanTest {

  @Test
  void shouldRunWorkloadAOnBothSystemsByDefault() {
    WorkloadPlan plan = plan(Map.of());

    assertEquals(WorkloadPreset.A, plan.preset());
    assertEquals(List.of(Operation.READ, Operation.UPDATE), plan.operationsRun());
    assertEquals(Distribution.ZIPFIAN, plan.distribution());
    assertEquals(List.of("couchdb", "memcache"), plan.systems());
    assertEquals(1000, plan.records());
    assertEquals(0, plan.target());
    assertTrue(plan.describe().startsWith("workload a (update heavy): read 0.5, update 0.5, zipfian over 1,000 records"
        + " of 10 fields of 100 bytes; 16 threads for 30 s per system, as fast as they go"), plan.describe());
  }

  @Test
  void shouldOverrideEachPresetValueAlone() {
    WorkloadPlan plan = plan(Map.of("workload", "B", "read", "0.9", "update", "0.1", "distribution", "hotspot",
        "records", "50", "fields", "3", "fieldLength", "7", "threads", "4", "operations", "1000", "target", "500"));

    assertEquals(0.9, plan.proportions().get(Operation.READ));
    assertEquals(Distribution.HOTSPOT, plan.distribution());
    assertEquals(List.of(50, 3, 7, 4), List.of(plan.records(), plan.fields(), plan.fieldLength(), plan.threads()));
    assertEquals(1000, plan.operations());
    assertEquals(500, plan.target());
  }

  @Test
  void shouldRunAScanningWorkloadOnCouchDbOnlyAndSayWhy() {
    WorkloadPlan plan = plan(Map.of("workload", "e"));

    assertEquals(List.of("couchdb"), plan.systems());
    assertTrue(plan.memcacheLeftOut().orElseThrow().contains("scan (0.95 of the operations) has no memcache"
        + " equivalent"));
    assertEquals(0, WorkloadPlan.from(settings(Map.of("workload", "e", "operations", "1000"))).expectedInserts() % 2);
    assertEquals(100, plan(Map.of("workload", "e", "operations", "1000")).expectedInserts(),
        "YCSB's expectednewkeys: operations x insert proportion x 2");
  }

  @Test
  void shouldStopBeforeAnyLoadWithOneLineNamingThePropertyAndItsAllowedValues() {
    assertRefused(Map.of("workload", "g"), "-Dworkload=g is not one of YCSB's core workloads: give -Dworkload=a, b,"
        + " c, d, e or f");
    assertRefused(Map.of("distribution", "gauss"), "-Ddistribution=gauss");
    assertRefused(Map.of("read", "0.7"), "the proportions add up to 1.2, not 1");
    assertRefused(Map.of("zipfianConstant", "1"), "-DzipfianConstant=1.0 is outside (0, 1)");
    assertRefused(Map.of("zipfianConstant", "0"), "-DzipfianConstant=0.0 is outside (0, 1)");
    assertRefused(Map.of("records", "0"), "-Drecords=0 is too small (expected >= 1)");
    assertRefused(Map.of("workload", "e", "system", "memcache"), "-Dsystem=memcache with scans: memcache has no"
        + " scan");
    assertRefused(Map.of("system", "redis"), "redis is not a system");
    assertRefused(Map.of("operations", "10", "duration", "5"), "-Doperations and -Dduration are both given");
    assertRefused(Map.of("recordLayout", "columns"), "-DrecordLayout=columns is not a record layout");
    assertRefused(Map.of("injector", "1/2"), "Workload runs on one injector");
    assertRefused(Map.of("targets", "100,200", "target", "50"), "-Dtargets runs a staircase of rates");
    assertRefused(Map.of("targets", "100,200", "duration", "5"), "leave out -Dtarget, -Doperations and -Dduration");
    assertRefused(Map.of("targets", "auto"), "-Dtargets=auto searches for the highest rate");
  }

  @Test
  void shouldRunAStaircaseOfRatesPerSystemInsteadOfOneRate() {
    WorkloadPlan plan = plan(Map.of("targets", "100,200", "stepSeconds", "4", "settleSeconds", "1"));

    assertEquals(List.of(100.0, 200.0), plan.curve().orElseThrow().targets());
    assertTrue(plan.describe().endsWith("16 threads per system, target rates 100, 200 /s; each step 1 s settling, 4 s"
        + " measured"), plan.describe());
    assertEquals(0, plan.expectedInserts(), "workload a inserts nothing");
    assertEquals(50, plan(Map.of("targets", "100", "stepSeconds", "4", "settleSeconds", "1", "workload", "d"))
        .expectedInserts(), "100/s for 5 s, 0.05 of them inserts, twice as YCSB reckons");
  }

  private static void assertRefused(Map<String, String> properties, String start) {
    OneLineException refused = assertThrows(OneLineException.class, () -> plan(properties),
        "refused: " + properties);
    assertTrue(refused.getMessage().contains(start), refused.getMessage());
  }

  private static WorkloadPlan plan(Map<String, String> properties) {
    return WorkloadPlan.from(settings(properties));
  }

  private static Settings settings(Map<String, String> properties) {
    return Settings.of(properties, Map.of());
  }

  @Test
  void shouldRefuseExpiryWhoseValuesItReadsBack() {
    assertRefused(Map.of("expiry", "60"), "-Dexpiry: Workload reads back every record it wrote");
  }

  @Test
  void shouldRefuseBackgroundWorkWhenMemcacheRunsInTheSameRun() {
    assertEquals("-Dbackground with -Dsystem=couchdb,memcache: the background work is CouchDB's, and would run on"
        + " into memcache's part of the run: give -Dsystem=couchdb", assertThrows(OneLineException.class,
            () -> WorkloadPlan.from(Settings.of(Map.of("background", "viewbuild"), Map.of()))).getMessage());
    assertEquals(List.of("couchdb"), WorkloadPlan.from(Settings.of(Map.of("background", "viewbuild", "system",
        "couchdb"), Map.of())).systems());
  }
}
