package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.rounds.Spread;
import couchbench.targets.MemcachedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** MemSet with -Drounds=2 against a real memcached: what a user reads of each round, and of the two together. */
class SiegeRoundsIT {

  private static final List<String> ROUNDS = List.of("memcache set round 1", "memcache set round 2");

  @Test
  void shouldNameEachRoundsSetsApartAndGiveTheirMedianAndRange() throws Exception {
    Path keyFile = KeyFiles.fresh("memcache");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = GatlingRun.run("MemSet", Map.of("memcache.servers", memcached.address(),
          "rounds", "2", "users", "2", "duration", "1", "warmup", "0", "keyFile", keyFile.toString()),
          Duration.ofMinutes(2));

      assertEquals(0, run.exitCode(), run.why());
      Path folder = run.requireRunFolder();
      Map<String, GatlingReport.Counts> report = GatlingReport.requests(folder);
      assertEquals(ROUNDS, report.keySet().stream().sorted().toList(), "a request name per round, no other");
      Results results = ResultsFile.read(folder);
      long acknowledged = 0;
      for (String round : ROUNDS) {
        acknowledged += ExactResults.assertClientTimed(folder, round, report.get(round)).ok();
      }
      Results.ServerCount cmdSet = results.serverCounts().get(0);
      assertEquals(List.of("memcache set round 1", "memcache set round 2", "warm-up memcache set"),
          cmdSet.requests(), "memcache's cmd_set is checked against every round's sets");
      assertEquals(acknowledged, cmdSet.acknowledged());
      assertEquals(acknowledged, cmdSet.change(), "cmd_set grew by both rounds' acknowledged sets");
      assertEquals(acknowledged, Long.parseLong(MemcachedStats.of(memcached.port()).get("cmd_set")));
      assertEquals(acknowledged, Files.readAllLines(keyFile).size() - 1, "both rounds' keys in the one key file");

      Path roundByRound = folder.resolve("siege-s-figures-round-by-round.csv");
      List<String> columns = Arrays.asList(Files.readAllLines(roundByRound).get(0).split(","));
      List<String[]> rounds = rows(roundByRound);
      assertEquals(ROUNDS, rounds.stream().map(row -> row[0]).toList());
      List<String[]> spread = rows(folder.resolve("siege-s-figures-over-the-rounds.csv"));
      for (String figure : List.of("transactions", "transaction rate (trans/s)", "response time (s)")) {
        int column = columns.indexOf(figure);
        List<String> cells = rounds.stream().map(row -> row[column]).toList();
        String[] row = spread.stream().filter(figures -> figures[1].equals(figure)).findFirst().orElseThrow();
        // The page's cells are rounded alike (three significant digits): the range is two of the rounds' cells, the
        // median their mean, within that rounding.
        Spread ofCells = Spread.of(cells.stream().map(Double::parseDouble).toList());
        assertEquals(List.of(figure, cells.stream().min(byValue()).orElseThrow(), cells.stream().max(byValue())
            .orElseThrow(), "2"), List.of(row[1], row[3], row[4], row[5]), "min, max, rounds of " + figure);
        assertEquals(ofCells.median(), Double.parseDouble(row[2]), ofCells.median() * 0.01, figure + " median");
      }
      String page = Files.readString(folder.resolve("summary.html"));
      assertTrue(page.contains("median of 2 rounds"), page);
      assertTrue(page.contains("Each step lasted 1 s (-Dduration=1), under the 2 s of load"), "the rule: " + page);
    }
  }

  /** The rows of a table's CSV without its header; siege's names and numbers hold no comma. */
  private static List<String[]> rows(Path file) throws Exception {
    return Files.readAllLines(file).stream().skip(1).map(line -> line.split(",")).toList();
  }

  private static Comparator<String> byValue() {
    return Comparator.comparingDouble(Double::parseDouble);
  }
}
