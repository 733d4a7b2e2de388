package couchbench.metrics;

import couchbench.startup.Settings;
import java.time.Duration;
import java.util.Optional;

/**
 * Where live metrics are served, and how long a run waits at its end for the last scrape.
 *
 * @param port the port, from -Dmetrics.port
 * @param bind the address the server listens on, from -Dmetrics.bind: loopback by default, as the load's own servers
 * @param linger how long the run waits at its end for a scrape of its final figures, from -Dmetrics.linger (seconds),
 *     where something scraped during the run
 */
public record MetricsPlan(int port, String bind, Duration linger) {

  /**
   * @param settings the run's settings
   * @return the plan; empty without -Dmetrics.port (live metrics are off by default)
   * @throws couchbench.startup.SettingsException when a setting does not parse
   */
  public static Optional<MetricsPlan> from(Settings settings) {
    if (settings.value("metrics.port").isEmpty()) {
      return Optional.empty();
    }
    int port = settings.intValue("metrics.port", 9464, 1);
    if (port > 65_535) {
      throw new MetricsException("-Dmetrics.port=" + port + ": give a TCP port, 1 to 65535 (Prometheus exporters"
          + " often take 9464)");
    }
    return Optional.of(new MetricsPlan(port, settings.get("metrics.bind", "127.0.0.1").trim(),
        Duration.ofSeconds(settings.intValue("metrics.linger", 15, 0))));
  }

  /** @return where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics */
  public String url() {
    return "http://" + (bind.contains(":") ? "[" + bind + "]" : bind) + ":" + port + "/metrics";
  }
}
