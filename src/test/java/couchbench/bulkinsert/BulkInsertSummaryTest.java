package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.resources.CpuMeter;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import couchbench.targets.LocalServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkInsertSummaryTest {

  private static final CouchTarget TARGET = new CouchTarget("http://127.0.0.1:5984", Optional.empty(), false);

  private static CpuMeter.Reading reading(double client, double jit, Double server) {
    return new CpuMeter.Reading(Optional.of(client), Optional.of(client * 0.9), Optional.of(client * 0.1),
        Optional.of(jit), Optional.of(0.0), Optional.ofNullable(server));
  }

  private static Map<BulkInsertStep, StepTally> tallies(BulkInsertPlan plan, Double serverAtEnd) {
    Map<BulkInsertStep, StepTally> tallies = new LinkedHashMap<>();
    StepTally ran = new StepTally(1);
    ran.cpuAtStart(reading(10, 2, serverAtEnd == null ? null : 100.0));
    ran.cpuAtEnd(reading(10.5, 2.25, serverAtEnd));
    tallies.put(plan.steps().get(0), ran);
    tallies.put(plan.steps().get(1), new StepTally(1)); // never ran to its end: no CPU row
    return tallies;
  }

  @Test
  void shouldShowTheClientsCpuBesideTheServersStepByStep(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "64,1024", "threads", "1",
        "single", "false"), Map.of()));

    BulkInsertSummary.page("BulkInsert", plan, TARGET, Optional.of(new LocalServer("beam.smp", 4242, Optional.empty())),
        tallies(plan, 102.0), Optional.empty(), false).writeTo(folder);

    assertEquals(List.of(
        "method,B,T,client CPU (s),client user (s),client system (s),client JIT (s),client GC (s),server CPU (s),"
            + "client / server",
        "bulk (_bulk_docs),64,1,0.5,0.45,0.05,0.25,0,2,0.25"), Files.readAllLines(folder.resolve("cpu-by-step.csv")));
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("the server, beam.smp (pid 4242)"), page);
    assertTrue(page.contains("In all steps: client 0.50 s, server 2.00 s."), page);
  }

  @Test
  void shouldSayWhenTheServersCpuIsNotKnown(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "64,1024", "threads", "1",
        "single", "false"), Map.of()));

    BulkInsertSummary.page("BulkInsert", plan, TARGET, Optional.empty(), tallies(plan, null), Optional.empty(), false).writeTo(folder);

    assertEquals("bulk (_bulk_docs),64,1,0.5,0.45,0.05,0.25,0,,",
        Files.readAllLines(folder.resolve("cpu-by-step.csv")).get(1), "the client's figures, the server's empty");
    assertTrue(Files.readString(folder.resolve("summary.html"))
        .contains("the server: n/a, it is not on this machine, or its process could not be seen."));
  }
}
