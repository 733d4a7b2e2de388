package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CurvePage draws any number of systems: four lines each, two systems a chart once there are more than two. */
class CurvePageTest {

  @TempDir
  Path folder;

  @Test
  void shouldDrawSixteenSystemsInEightChartsOfTwoEach() throws Exception {
    Map<String, List<StepFigures>> steps = new LinkedHashMap<>();
    Map<String, Double> highest = new LinkedHashMap<>();
    Histogram latency = new Histogram(3);
    latency.recordValue(2_000);
    for (int system = 1; system <= 16; system++) {
      steps.put("class " + system, List.of(StepFigures.judged(10, 10, 20, 0, 0, latency, latency, Optional.empty()),
          StepFigures.judged(20, 20, 40, 0, 0, latency, latency, Optional.empty())));
      highest.put("class " + system, 20.0);
    }

    CurvePage.addTo(SummaryPage.titled("curve"), "target rates 10, 20 /s", steps, highest).writeTo(folder);

    assertTrue(Files.exists(folder.resolve("latency-against-throughput-8.png"))
        && !Files.exists(folder.resolve("latency-against-throughput-9.png")), "eight charts of two systems");
    assertEquals(16 * 4 * 2 + 1, Files.readAllLines(folder.resolve("latency-against-throughput.csv")).size(),
        "every system's four lines of two points in one CSV");
  }
}
