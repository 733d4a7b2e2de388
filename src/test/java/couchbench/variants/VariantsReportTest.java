package couchbench.variants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.history.JudgedFigures;
import couchbench.startup.Settings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class VariantsReportTest {

  @TempDir
  Path folder;

  private static List<JudgedFigures.Value> round(double buildMicros, double p50Micros) {
    return List.of(new JudgedFigures.Value("get", "p50", "us", true, p50Micros, false),
        new JudgedFigures.Value("view v", "index build time", "µs", true, buildMicros, true));
  }

  @Test
  void shouldOpenWithTheVerdictsHeadlinesFirstLatenciesInMsWherePastOneMs() throws Exception {
    VariantPlan plan = VariantPlan.from(Settings.of(Map.of("variants", "quickjs;sm", "rounds", "2"), Map.of()))
        .orElseThrow();
    Comparison comparison = Comparison.of(List.of("quickjs", "sm"), List.of(
        List.of(round(2_500_000, 800), round(2_600_000, 820)), List.of(round(3_400_000, 790), round(3_500_000, 830))));
    List<List<Path>> runs = List.of(List.of(Path.of("query-1"), Path.of("query-4")),
        List.of(Path.of("query-2"), Path.of("query-3")));

    VariantsReport.page("Query", plan, runs, comparison, List.of()).writeTo(folder);

    List<String> table = Files.readAllLines(folder.resolve("verdicts-against-quickjs.csv"));
    assertEquals("figure,of,unit,quickjs: median (range),sm: median (range),sm / quickjs,sm: verdict,chance by noise",
        table.get(0));
    assertEquals("index build time,view v,ms,\"2,550 (2,500-2,600)\",\"3,450 (3,400-3,500)\",1.353,worse,1 in 3",
        table.get(1), "the headline first, in ms: its values pass 1 ms");
    assertEquals("p50,get,µs,810 (800-820),810 (790-830),1.000,no difference within the noise,1 in 3", table.get(2),
        "a latency under 1 ms in µs");
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.indexOf("Verdicts against quickjs") < page.indexOf("<img"), "the table before the charts");
    assertTrue(page.contains("href=\"../query-3/summary.html\""), "a link to each round's run");
  }
}
