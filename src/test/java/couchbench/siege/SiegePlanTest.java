package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.data.Expiry;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import couchbench.versus.VersusPlan;
import couchbench.workloads.Operation;
import couchbench.workloads.WorkloadPlan;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SiegePlanTest {

  @Test
  void shouldWarmUpForTenSecondsWithoutPipeliningByDefault() {
    SiegePlan plan = SiegePlan.from(Settings.of(Map.of(), Map.of()));

    assertEquals(Duration.ofSeconds(10), plan.warmup());
    assertEquals(1, plan.pipeline());
    assertEquals("50 users sending back to back for 60 s", plan.describeLoad());
  }

  @Test
  void shouldSayWhatAPipelineDepthMeansInTheSummary() {
    SiegePlan plan = SiegePlan.from(Settings.of(Map.of("users", "16", "pipeline", "8", "warmup", "0"), Map.of()));

    assertEquals(Duration.ZERO, plan.warmup());
    assertEquals("16 users sending back to back for 60 s; each user sends 8 memcache requests at once on its"
        + " connection, then the next 8 once all are answered (pipeline depth 8)", plan.describeLoad());
  }

  @Test
  void shouldSayWhatSharedConnectionsMeanInTheSummary() {
    SiegePlan plan = SiegePlan.from(Settings.of(Map.of("users", "16", "usersPerConnection", "8"), Map.of()));

    assertEquals(1, plan.pipeline(), "one parameter, one meaning: users per connection is not a pipeline");
    assertEquals(8, plan.usersPerConnection());
    assertEquals("16 users sending back to back for 60 s; 8 users share each memcache connection, so up to 8 of"
        + " their requests are in flight on it", plan.describeLoad());
  }

  @Test
  void shouldRefuseADepthOutOfBoundsAndAPipelineForHttpWithOneLine() {
    assertEquals("-Dpipeline=0 is too small (expected >= 1)", assertThrows(SettingsException.class,
        () -> SiegePlan.from(Settings.of(Map.of("pipeline", "0"), Map.of()))).getMessage());
    assertEquals("-Dpipeline=1025 is more than 1024: give -Dpipeline between 1 (no pipelining) and 1024",
        assertThrows(SettingsException.class,
            () -> SiegePlan.from(Settings.of(Map.of("pipeline", "1025"), Map.of()))).getMessage());
    SiegePlan pipelined = SiegePlan.from(Settings.of(Map.of("pipeline", "4"), Map.of()));
    assertEquals("-Dpipeline=4 applies to memcache requests only: CouchSet sends one HTTP request at a time on"
        + " each connection, as siege does; leave -Dpipeline out",
        assertThrows(SettingsException.class, () -> pipelined.forHttp("CouchSet")).getMessage());
    SiegePlan shared = SiegePlan.from(Settings.of(Map.of("usersPerConnection", "4"), Map.of()));
    assertEquals("-DusersPerConnection=4 applies to memcache requests only: CouchGet sends one HTTP request at a time"
        + " on each connection, as siege does; leave -DusersPerConnection out",
        assertThrows(SettingsException.class, () -> shared.forHttp("CouchGet")).getMessage());
    assertEquals(Duration.ZERO, SiegePlan.from(Settings.of(Map.of(), Map.of())).forHttp("CouchGet").warmup(),
        "CouchGet runs no warm-up, and its page must not claim one");
    assertEquals("-DusersPerConnection=2000 is more than 1024: give -DusersPerConnection between 1 (a connection per"
        + " user) and 1024", assertThrows(SettingsException.class,
            () -> SiegePlan.from(Settings.of(Map.of("usersPerConnection", "2000"), Map.of()))).getMessage());
  }

  @Test
  void shouldClimbAStaircaseSplitOverTheInjectorsInsteadOfADuration() {
    SiegePlan alone = SiegePlan.from(Settings.of(Map.of("users", "4", "targets", "100,200"), Map.of()));
    assertEquals("4 users, each operation at its intended start, the users sharing each step's rate: target rates"
        + " 100, 200 /s; each step 3 s settling, 10 s measured", alone.describeLoad());
    SiegePlan second = SiegePlan.from(Settings.of(Map.of("users", "4", "targets", "100,200", "injector", "1/2"),
        Map.of()));
    assertEquals(List.of(50.0, 100.0), second.curve().orElseThrow().targets());
    assertTrue(SiegePlan.from(Settings.of(Map.of(), Map.of())).newStaircase("MemGet").isEmpty());
  }

  @Test
  void shouldRefuseWhatAStaircaseLeavesWithoutEffectInOneLine() {
    assertEquals("-Dduration does not go with -Dtargets: a staircase runs each rate for -DsettleSeconds then"
        + " -DstepSeconds, one operation at a time per user; leave -Dduration out", assertThrows(
            SettingsException.class, () -> SiegePlan.from(Settings.of(Map.of("targets", "100", "duration", "30"),
                Map.of()))).getMessage());
    assertTrue(assertThrows(SettingsException.class, () -> SiegePlan.from(Settings.of(Map.of("targets", "100",
        "rounds", "3"), Map.of()))).getMessage().startsWith("-Drounds does not go with -Dtargets"));
    assertTrue(assertThrows(SettingsException.class, () -> SiegePlan.from(Settings.of(Map.of("targets", "100",
        "pipeline", "8"), Map.of()))).getMessage().startsWith("-Dpipeline does not go with -Dtargets"));
    assertEquals("-Dtargets=auto over -Dinjector=1/2: each injector would search on its own share and stop at its own"
        + " rate; give fixed rates, e.g. -Dtargets=1000,2000,4000, which the injectors split, and whose merged run"
        + " marks the goal on the whole", assertThrows(SettingsException.class, () -> SiegePlan.from(Settings.of(
            Map.of("targets", "auto", "sla", "p99<5ms", "injector", "1/2"), Map.of()))).getMessage());
  }

  @Test
  void shouldPaceEachConnectionAtItsRateForTheDurationAsOneStep() {
    SiegePlan plan = SiegePlan.from(Settings.of(Map.of("users", "8", "usersPerConnection", "2", "ratePerConnection",
        "50", "duration", "20"), Map.of()));

    assertEquals(List.of(200.0), plan.curve().orElseThrow().targets(), "4 connections of 50/s each");
    assertEquals(Duration.ofSeconds(20), plan.curve().orElseThrow().measure());
    assertEquals(Duration.ZERO, plan.curve().orElseThrow().settle(), "measured from its first request");
    assertEquals("8 users, each connection carrying 50 requests a second (-DratePerConnection), each at its intended"
        + " start: target rates 200 /s; each step 0 s settling, 20 s measured; 2 users share each memcache"
        + " connection, so up to 2 of their requests are in flight on it", plan.describeLoad());
    assertEquals(List.of(25.0), SiegePlan.from(Settings.of(Map.of("users", "4", "ratePerConnection", "12.5",
        "injector", "1/2"), Map.of())).curve().orElseThrow().targets(), "this injector's 2 connections");
    assertEquals("-DratePerConnection does not go with -Dtargets: a staircase runs each rate for -DsettleSeconds then"
        + " -DstepSeconds, one operation at a time per user; leave -DratePerConnection out", assertThrows(
            SettingsException.class, () -> SiegePlan.from(Settings.of(Map.of("targets", "100", "ratePerConnection",
                "10"), Map.of()))).getMessage());
    assertEquals("-Dpipeline does not go with -DratePerConnection: each user sends one operation at a time, at its"
        + " intended start; leave -Dpipeline out", assertThrows(SettingsException.class, () -> SiegePlan.from(
            Settings.of(Map.of("ratePerConnection", "10", "pipeline", "4"), Map.of()))).getMessage());
    assertEquals("-DratePerConnection=0 is not a rate above 0: give the requests a second each connection carries at"
        + " most, e.g. -DratePerConnection=100", assertThrows(SettingsException.class, () -> SiegePlan.from(
            Settings.of(Map.of("ratePerConnection", "0"), Map.of()))).getMessage());
  }

  @Test
  void shouldReconnectEveryNRequestsOnMemcacheOnly() {
    SiegePlan plan = SiegePlan.from(Settings.of(Map.of("users", "4", "reconnectEvery", "100"), Map.of()));

    assertEquals(100, plan.reconnectEvery());
    assertTrue(plan.describeLoad().endsWith("; each memcache connection is closed and another opened after 100"
        + " requests (-DreconnectEvery), at the first request that finds it idle"), plan.describeLoad());
    assertEquals("-DreconnectEvery=100 applies to memcache requests only: CouchSet sends one HTTP request at a time on"
        + " each connection, as siege does; leave -DreconnectEvery out", assertThrows(SettingsException.class,
            () -> plan.forHttp("CouchSet")).getMessage());
  }

  @Test
  void shouldExpireMemcacheValuesOnly() {
    SiegePlan plan = SiegePlan.from(Settings.of(Map.of("users", "4", "expiry", "60-300"), Map.of()));

    assertEquals(new Expiry(60, 300), plan.expiry());
    assertTrue(plan.describeLoad().endsWith("; each value expiring 60-300 s after its set, drawn uniformly"
        + " (-Dexpiry)"), plan.describeLoad());
    assertEquals("-Dexpiry applies to memcache values only: CouchDB's documents do not expire; leave -Dexpiry out",
        assertThrows(SettingsException.class, () -> plan.forHttp("CouchSet")).getMessage());
    assertTrue(assertThrows(SettingsException.class, () -> VersusPlan.from(Settings.of(Map.of("expiry", "60"),
        Map.of()))).getMessage().startsWith("-Dexpiry: CouchVsMemcache reads back every value it wrote"));
    assertEquals("-Dexpiry applies to MemSet's sets: MemGet reads the expiry time each key of MemSet's key file"
        + " carries; leave -Dexpiry out here and give it to MemSet",
        assertThrows(SettingsException.class, plan::forGets).getMessage());
    assertEquals(Expiry.NONE, SiegePlan.from(Settings.of(Map.of(), Map.of())).expiry());
  }

  @Test
  void shouldPointARatioOfSetsToGetsToWorkloadWithItsSettings() {
    assertEquals("-Dratio=1:10: MemSet and MemGet each send one kind of request, as the seed's pages did; sets and gets"
        + " mixed on one connection are Workload's (docs/workloads.md): -Dsimulation=Workload -Dsystem=memcache"
        + " -Dupdate=0.0909 -Dread=0.9091 (an update is a set of the record, and every read is checked)",
        assertThrows(SettingsException.class, () -> SiegePlan.from(Settings.of(Map.of("ratio", "1:10"), Map.of())))
            .getMessage());
    Map<Operation, Double> mix = WorkloadPlan.from(Settings.of(Map.of("system", "memcache", "update", "0.0909",
        "read", "0.9091"), Map.of())).proportions();
    assertEquals(0.0909, mix.get(Operation.UPDATE), 1e-9, "Workload takes the settings given: " + mix);
    assertEquals(0.9091, mix.get(Operation.READ), 1e-9, "the rest reads: " + mix);
    assertEquals("-Dratio=1/10 does not parse as sets:gets (e.g. -Dratio=1:10); and sets and gets mixed on one"
        + " connection are Workload's (docs/workloads.md)", assertThrows(SettingsException.class,
            () -> SiegePlan.from(Settings.of(Map.of("ratio", "1/10"), Map.of()))).getMessage());
  }
}
