package couchbench.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import couchbench.results.ServerReading;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What a scrape reads: the run's requests so far (a counter and a latency histogram per request name and outcome), its
 * active users, a paced load's times from the intended start, a staircase's step and rate, and the servers' own
 * figures of the sampler's last second (issue 46's, in base units: a counter's total, a gauge's value), labelled with
 * the simulation and the injector, read at each scrape. Each scrape's time is kept, so that the run's end can wait for
 * one that saw its final figures.
 */
final class RunMetrics implements MultiCollector {

  private static final double[] UPPER_BOUNDS = upperBounds();

  private final String simulation;
  private final String injector;
  private final LiveRequests live;
  private final Supplier<List<ServerReading>> servers;
  private final AtomicLong lastScrapeNanos = new AtomicLong(Long.MIN_VALUE);

  RunMetrics(String simulation, String injector, LiveRequests live, Supplier<List<ServerReading>> servers) {
    this.simulation = simulation;
    this.injector = injector;
    this.live = live;
    this.servers = servers;
  }

  @Override
  public MetricSnapshots collect() {
    CounterSnapshot.Builder requests = CounterSnapshot.builder().name("couchbench_requests")
        .help("Requests the run has recorded, by request name and outcome (status ok or ko), as its results count them");
    HistogramSnapshot.Builder durations = HistogramSnapshot.builder().name("couchbench_request_duration_seconds")
        .unit(Unit.SECONDS).help("Requests' times as the run's page takes them: couchbench's client's own for"
            + " memcache, Gatling's whole milliseconds for the rest");
    for (Map.Entry<LiveRequests.Key, LatencyBuckets> named : live.requests().entrySet()) {
      Labels labels = Labels.of("simulation", simulation, "injector", injector, "request", named.getKey().request(),
          "status", named.getKey().ok() ? "ok" : "ko");
      long[] counts = named.getValue().counts();
      requests.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels)
          .value(Arrays.stream(counts).sum()).build());
      durations.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder().labels(labels)
          .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS, counts))
          .sum(named.getValue().seconds()).build());
    }
    GaugeSnapshot.Builder users = GaugeSnapshot.builder().name("couchbench_active_users")
        .help("Virtual users started and not yet ended, per scenario");
    for (Map.Entry<String, AtomicLong> scenario : live.activeUsers().entrySet()) {
      users.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(Labels.of("simulation", simulation,
          "injector", injector, "scenario", scenario.getKey())).value(scenario.getValue().get()).build());
    }
    MetricSnapshots.Builder all = MetricSnapshots.builder().metricSnapshot(requests.build())
        .metricSnapshot(durations.build()).metricSnapshot(users.build());
    if (!live.intended().isEmpty()) {
      all.metricSnapshot(intended());
    }
    if (!live.steps().isEmpty()) {
      staircase().forEach(all::metricSnapshot);
    }
    serverFigures().forEach(all::metricSnapshot);
    lastScrapeNanos.set(System.nanoTime());
    return all.build();
  }

  // A paced load's times from the intended start, per operation and outcome: what the users waited, late sends included.
  private MetricSnapshot intended() {
    HistogramSnapshot.Builder intended = HistogramSnapshot.builder().name("couchbench_intended_duration_seconds")
        .unit(Unit.SECONDS).help("Paced operations' times from their intended start (the schedule's) to their end, by"
            + " operation and outcome: the coordinated-omission-free latency");
    for (Map.Entry<LiveRequests.Key, LatencyBuckets> named : live.intended().entrySet()) {
      intended.dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
          .labels(Labels.of("simulation", simulation, "injector", injector, "operation", named.getKey().request(),
              "status", named.getKey().ok() ? "ok" : "ko"))
          .classicHistogramBuckets(ClassicHistogramBuckets.of(UPPER_BOUNDS, named.getValue().counts()))
          .sum(named.getValue().seconds()).build());
    }
    return intended.build();
  }

  // Each staircase's step under way and the rate it asks.
  private List<MetricSnapshot> staircase() {
    GaugeSnapshot.Builder step = GaugeSnapshot.builder().name("couchbench_staircase_step")
        .help("The staircase's step under way, from 1");
    GaugeSnapshot.Builder rate = GaugeSnapshot.builder().name("couchbench_staircase_target_rate")
        .help("The operations a second the staircase's step under way asks for");
    for (Map.Entry<String, LiveRequests.Step> system : live.steps().entrySet()) {
      Labels labels = Labels.of("simulation", simulation, "injector", injector, "system", system.getKey());
      step.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
          .value(system.getValue().number()).build());
      rate.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels)
          .value(system.getValue().rate()).build());
    }
    return List.of(step.build(), rate.build());
  }

  // The servers' figures of the sampler's last second, a family per figure, a point per server.
  private List<MetricSnapshot> serverFigures() {
    // A server's figure read twice in a second (two memcache targets' sums) is one point, the last, as on the page.
    Map<String, Map<String, ServerReading>> byMetric = new TreeMap<>();
    for (ServerReading reading : servers.get()) {
      byMetric.computeIfAbsent(reading.metric(), any -> new LinkedHashMap<>()).put(reading.server(), reading);
    }
    List<MetricSnapshot> families = new ArrayList<>();
    byMetric.forEach((metric, byServer) -> {
      List<ServerReading> readings = List.copyOf(byServer.values());
      String name = "couchbench_server_" + metric;
      String help = "The servers' own figure " + metric + ", read once a second (-DsampleServers)";
      if (readings.get(0).counter()) {
        CounterSnapshot.Builder family = CounterSnapshot.builder().name(name).help(help);
        readings.forEach(reading -> family.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
            .labels(serverLabels(reading)).value(reading.value()).build()));
        families.add(family.build());
      } else {
        GaugeSnapshot.Builder family = GaugeSnapshot.builder().name(name).help(help);
        readings.forEach(reading -> family.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
            .labels(serverLabels(reading)).value(reading.value()).build()));
        families.add(family.build());
      }
    });
    return families;
  }

  private Labels serverLabels(ServerReading reading) {
    return Labels.of("simulation", simulation, "injector", injector, "server", reading.server());
  }

  /** @return System.nanoTime() of the last scrape's read, Long.MIN_VALUE before the first */
  long lastScrapeNanos() {
    return lastScrapeNanos.get();
  }

  private static double[] upperBounds() {
    double[] bounds = Arrays.copyOf(LatencyBuckets.BOUNDS, LatencyBuckets.BOUNDS.length + 1);
    bounds[bounds.length - 1] = Double.POSITIVE_INFINITY;
    return bounds;
  }
}
