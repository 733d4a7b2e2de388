package couchbench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MetricsPlanTest {

  @Test
  void shouldBeOffWithoutAPortAndOnLoopbackWithOne() {
    assertEquals(Optional.empty(), plan(Map.of()));

    MetricsPlan plan = plan(Map.of("metrics.port", "9464")).orElseThrow();

    assertEquals(new MetricsPlan(9464, "127.0.0.1", Duration.ofSeconds(15)), plan);
    assertEquals("http://127.0.0.1:9464/metrics", plan.url());
    assertEquals("http://[::1]:9500/metrics", plan(Map.of("metrics.port", "9500", "metrics.bind", "::1"))
        .orElseThrow().url());
  }

  @Test
  void shouldRefuseAPortThatIsNoneInOneLine() {
    MetricsException refused = assertThrows(MetricsException.class, () -> plan(Map.of("metrics.port", "70000")));
    assertTrue(refused.getMessage().startsWith("-Dmetrics.port=70000: give a TCP port, 1 to 65535"),
        refused.getMessage());
  }

  private static Optional<MetricsPlan> plan(Map<String, String> properties) {
    return MetricsPlan.from(Settings.of(properties, Map.of()));
  }
}
