package couchbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import couchbench.results.Results;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GateTest {

  private static final Map<String, String> FOUR_USERS = Map.of("users", "4", "rounds", "3");

  @TempDir
  Path root;

  @Test
  void shouldJudgeTheRunAgainstTheLastEarlierRunOfTheSameSimulationAndParameters() {
    GateRuns.write(root, "memget-1", GateRuns.run("MemGet", FOUR_USERS, "2026-12-01T10:00:00Z",
        List.of(100.0, 110.0, 120.0), 1000));
    GateRuns.write(root, "memget-2", GateRuns.run("MemGet", FOUR_USERS, "2026-12-01T11:00:00Z",
        List.of(200.0, 210.0, 220.0), 1000));
    GateRuns.write(root, "memget-other", GateRuns.run("MemGet", Map.of("users", "8", "rounds", "3"),
        "2026-12-01T12:00:00Z", List.of(1.0, 1.0, 1.0), 1000));
    Gate gate = gate(Map.of("baseline", "last", "regression", "p99:10%,throughput:5%"));

    Gate.Judgement judgement = gate.judge(GateRuns.run("MemGet", withGate(FOUR_USERS), "2026-12-01T13:00:00Z",
        List.of(230.0, 240.0, 250.0), 990));

    assertEquals(root.resolve("memget-2"), judgement.baseline(), "the last run with the same parameters");
    assertNull(judgement.notJudged());
    assertEquals(2, judgement.verdicts().size(), "p99 and throughput of the one measured request, no warm-up");
    assertTrue(judgement.verdicts().get(0).regressed(), judgement.verdicts().get(0).describe());
    assertFalse(judgement.verdicts().get(1).regressed(), "1% fewer requests a second is within 5%");
  }

  @Test
  void shouldRefuseABaselineOfOtherParametersNamingTheDifference() {
    Path other = GateRuns.write(root, "memget-8", GateRuns.run("MemGet", Map.of("users", "8", "rounds", "3"),
        "2026-12-01T10:00:00Z", List.of(1.0, 1.0, 1.0), 1000));
    Gate gate = gate(Map.of("baseline", other.toString()));

    Gate.Judgement judgement = gate.judge(GateRuns.run("MemGet", FOUR_USERS, "2026-12-01T11:00:00Z",
        List.of(1.0, 1.0, 1.0), 1000));

    assertEquals("the baseline " + other + " differs from this run: -Dusers 8 against 4; give a baseline of the same"
        + " simulation and parameters", judgement.notJudged());
    Gate.Judgement ofCouchGet = gate.judge(GateRuns.run("CouchGet", Map.of("users", "8", "rounds", "3"),
        "2026-12-01T11:00:00Z", List.of(1.0, 1.0, 1.0), 1000));
    assertTrue(ofCouchGet.notJudged().contains("simulation MemGet against CouchGet"), ofCouchGet.notJudged());
    assertTrue(gate(Map.of("baseline", "last")).judge(GateRuns.run("CouchSet", Map.of(), "2026-12-01T11:00:00Z",
        List.of(1.0), 1)).notJudged().startsWith("no earlier run of CouchSet with these parameters under " + root));
  }

  @Test
  void shouldJudgeTwoRunsWhoseOnlyDifferenceIsWhereTheyWriteTheirKeyFileAsOneLoad() {
    Path first = GateRuns.write(root, "memset-1", GateRuns.run("MemSet", Map.of("users", "4", "keyFile",
        "data/keys/memcache.csv"), "2026-12-01T10:00:00Z", List.of(100.0), 1000));
    Results elsewhere = GateRuns.run("MemSet", Map.of("users", "4", "keyFile", "/tmp/elsewhere.csv"),
        "2026-12-01T11:00:00Z", List.of(100.0), 1000);

    Gate.Judgement named = gate(Map.of("baseline", first.toString())).judge(elsewhere);
    Gate.Judgement last = gate(Map.of("baseline", "last")).judge(elsewhere);

    assertNull(named.notJudged(), "-DkeyFile is an output, not a parameter of the load");
    assertEquals(first, named.baseline());
    assertEquals(first, last.baseline(), "-Dbaseline=last finds it too");
    assertEquals(2, last.verdicts().size());
    assertTrue(gate(Map.of("baseline", first.toString())).judge(GateRuns.run("MemSet", Map.of("users", "8",
        "keyFile", "/tmp/elsewhere.csv"), "2026-12-01T11:00:00Z", List.of(100.0), 1000)).notJudged()
        .contains("differs from this run: -Dusers 4 against 8; give"), "a parameter of the load still parts them,"
        + " and the key file is not named among the differences");
  }

  @Test
  void shouldPutTheVerdictOnThePageAskForTheExitCodeAndNeverTakeARegressedRunAsTheNextBaseline() throws IOException {
    Path first = GateRuns.write(root, "memget-1", GateRuns.run("MemGet", Map.of(), "2026-12-01T10:00:00Z",
        List.of(100.0), 1000));
    Results slower = GateRuns.run("MemGet", Map.of(), "2026-12-01T11:00:00Z", List.of(150.0), 1000);
    Path second = Files.createDirectories(root.resolve("memget-2")); // its results.json is written after the page
    List<Integer> codes = new ArrayList<>();

    gate(Map.of("baseline", "last")).addTo(SummaryPage.titled("MemGet"), slower, second, codes::add)
        .writeTo(root.resolve("page"));

    assertEquals(List.of(Gate.REGRESSED), codes);
    String html = Files.readString(root.resolve("page/summary.html"));
    assertTrue(html.contains("1 of 2 figures regressed"), html);
    List<String> table = Files.readAllLines(root.resolve("page/the-regression-gate-figure-by-figure.csv"));
    assertTrue(table.get(1).startsWith("memcache get,p99 (us),100,150,50,10,1 against 1,none: one measurement each,"
        + "REGRESSED"), table.toString());

    assertTrue(Files.readString(second.resolve(Gate.VERDICT)).startsWith("REGRESSED against " + first));
    GateRuns.write(root, "memget-2", slower);
    assertEquals(first, gate(Map.of("baseline", "last")).judge(GateRuns.run("MemGet", Map.of(),
        "2026-12-01T12:00:00Z", List.of(150.0), 1000)).baseline(), "the regressed run is passed by");

    codes.clear();
    gate(Map.of("baseline", "last")).addTo(SummaryPage.titled("CouchGet"), GateRuns.run("CouchGet", Map.of(),
        "2026-12-01T11:00:00Z", List.of(150.0), 1000), root.resolve("page"), codes::add);
    assertEquals(List.of(Gate.NOT_JUDGED), codes);
  }

  @Test
  void shouldRefuseBadSettingsBeforeTheLoadInOneLine() {
    assertTrue(Gate.from(Settings.of(Map.of(), Map.of()), root).isEmpty());
    assertEquals("-Dregression needs a baseline: give -Dbaseline=reports/<run folder>, or -Dbaseline=last for the"
        + " last run of the same simulation and parameters", assertThrows(SettingsException.class,
            () -> Gate.from(Settings.of(Map.of("regression", "p99:10%"), Map.of()), root)).getMessage());
    String missing = root.resolve("no-such-run").toString();
    assertTrue(assertThrows(SettingsException.class, () -> gate(Map.of("baseline", missing))).getMessage()
        .startsWith("-Dbaseline=" + missing + ": " + missing + ": no such file; give a run folder under " + root));
  }

  private Gate gate(Map<String, String> settings) {
    return Gate.from(Settings.of(settings, Map.of()), root).orElseThrow();
  }

  // The run's parameters as a gated run records them: the gate's own settings, which a baseline may lack.
  private static Map<String, String> withGate(Map<String, String> parameters) {
    Map<String, String> with = new HashMap<>(parameters);
    with.put("baseline", "last");
    with.put("regression", "p99:10%,throughput:5%");
    return with;
  }
}
