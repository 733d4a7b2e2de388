package couchbench.trend;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A merged run's trends: each injector's seconds judged apart, its columns named after it. */
class InjectorTrendsTest {

  private static final String HEAP = "load generator heap after GC (MB)";

  @TempDir
  Path folder;

  @Test
  void shouldJudgeEachInjectorsSecondsApartAndSayWhichOneRose() throws IOException {
    Map<String, Path> injectors = new LinkedHashMap<>();
    injectors.put("injector 0/2", seconds("a", second -> 100));
    injectors.put("injector 1/2", seconds("b", second -> 100 + second));
    TrendPlan plan = TrendPlan.parse(Optional.of("heap:+5%/h")).orElseThrow();

    TrendExtension.Judged judged = TrendExtension.judge(plan, SummaryPage.titled("MemSet (2 injectors, merged)"),
        injectors);

    assertTrue(judged.rises(), "injector 1/2's heap doubles in a minute");
    String page = Files.readString(judged.page().writeTo(folder.resolve("merged")));
    assertTrue(page.contains("Trend: injector 1/2: " + HEAP + ", rises"), "its chart, named after it");
    assertTrue(page.contains("Trend: injector 0/2: " + HEAP + ", holds"), "the other's, flat");
  }

  @Test
  void shouldHoldWhenNoInjectorsSeriesRises() throws IOException {
    Map<String, Path> injectors = new LinkedHashMap<>();
    injectors.put("injector 0/2", seconds("a", second -> 100));
    injectors.put("injector 1/2", seconds("b", second -> 100 + second % 2));

    assertFalse(TrendExtension.judge(TrendPlan.parse(Optional.of("heap:+5%/h")).orElseThrow(),
        SummaryPage.titled("MemSet (2 injectors, merged)"), injectors).rises());
  }

  // An injector's run folder with 60 seconds of its heap.
  private Path seconds(String name, IntToDoubleFunction heap) throws IOException {
    StringBuilder csv = new StringBuilder("second,requests (/s)," + HEAP + "\n");
    for (int second = 0; second < 60; second++) {
      csv.append(second).append(",1000,").append(heap.applyAsDouble(second)).append('\n');
    }
    Path run = Files.createDirectories(folder.resolve(name));
    Files.writeString(run.resolve("seconds.csv"), csv);
    return run;
  }
}
