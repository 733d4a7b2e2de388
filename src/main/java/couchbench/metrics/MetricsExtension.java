package couchbench.metrics;

import couchbench.run.RunContext;
import couchbench.run.RunExtension;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The run extension that serves live metrics in Prometheus's formats (OpenMetrics, text) at /metrics while the run
 * runs ({@link RunMetrics}): from its check, before anything is set up, so that a port taken stops the run in one line
 * before any load, to its end, when it waits (up to -Dmetrics.linger) for a scrape of its final figures.
 */
public final class MetricsExtension implements RunExtension {

  /** How `exec:java@extensions` lists it. */
  public static final Spec SPEC = new Spec("metrics", "off; -Dmetrics.port=9464 turns it on (-Dmetrics.bind, default"
      + " 127.0.0.1)", "serves the run's requests (counts and latency histograms per request name and outcome), active"
      + " users and the servers' sampled figures at /metrics in Prometheus's formats while it runs, read from the"
      + " recorders the page uses",
      "a tap on Gatling's records (a map lookup and an add per request) and one thread answering scrapes; nothing is"
          + " timed twice");

  private static final Duration REPLY_WRITTEN_WITHIN = Duration.ofSeconds(2);

  private final MetricsPlan plan;
  private final String injector;
  private HTTPServer server;
  private ExecutorService scrapes;
  private RunMetrics metrics;

  private MetricsExtension(MetricsPlan plan, String injector) {
    this.plan = plan;
    this.injector = injector;
  }

  /**
   * @param settings the run's settings
   * @return the extension, with -Dmetrics.port
   * @throws MetricsException when a setting does not parse
   */
  public static Optional<RunExtension> from(Settings settings) {
    return MetricsPlan.from(settings).map(plan -> new MetricsExtension(plan, InjectorShare.from(settings).toString()));
  }

  @Override
  public void check(RunContext run) {
    LiveRequests live = new LiveRequests();
    metrics = new RunMetrics(run.simulation(), injector, live, run.output()::serverReadings);
    PrometheusRegistry registry = new PrometheusRegistry();
    registry.register(metrics);
    scrapes = Executors.newSingleThreadExecutor(task -> {
      Thread thread = new Thread(task, "couchbench-metrics");
      thread.setDaemon(true);
      return thread;
    });
    try {
      server = HTTPServer.builder().hostname(plan.bind()).port(plan.port()).registry(registry)
          .executorService(scrapes).buildAndStart();
    } catch (IOException e) {
      scrapes.shutdownNow();
      throw new MetricsException("-Dmetrics.port=" + plan.port() + ": live metrics cannot be served on " + plan.bind()
          + ":" + plan.port() + " (" + e.getMessage() + "): another run or exporter holds it? Give another"
          + " -Dmetrics.port");
    }
    run.output().serveLive(live);
    Console.say("metrics: served at " + plan.url() + " while the run runs");
  }

  // Waits for one scrape after the run's figures are final (the last second's memcache times are taken as the page is
  // written), so that Prometheus holds the run's totals; not at all where nothing scraped during the run.
  @Override
  public void runEnds(RunContext run) {
    if (server == null) {
      return;
    }
    long finalAt = System.nanoTime();
    long scrapedBefore = metrics.lastScrapeNanos();
    if (scrapedBefore != Long.MIN_VALUE && plan.linger().toNanos() > 0) {
      long deadline = finalAt + plan.linger().toNanos();
      while (metrics.lastScrapeNanos() - finalAt < 0 && System.nanoTime() - deadline < 0) {
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      Console.say(metrics.lastScrapeNanos() - finalAt >= 0 ? "metrics: the final figures were scraped"
          : "metrics: no scrape within -Dmetrics.linger=" + plan.linger().toSeconds() + " s of the run's end: the"
              + " last second's figures may be missing from Prometheus");
    }
    // The last scrape is seen as its figures are read, before its reply is written; closing the server then (it stops
    // at once, its connections with it) can cut that reply, leaving Prometheus the scrape before (MetricsIT once found
    // 308 of 313 reads served). The scrapes' thread ends first, its reply written.
    scrapes.shutdown();
    try {
      scrapes.awaitTermination(REPLY_WRITTEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    server.close();
  }
}
