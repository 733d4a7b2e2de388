package couchbench.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Prerequisites;
import couchbench.process.FreePort;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus 2.x (Debian's package) on a free loopback port, scraping the jobs given every second, its data in
 * a folder of its own under target/; and its HTTP API's queries.
 */
final class Prometheus implements AutoCloseable {

  private static final Path BINARY = Path.of("/usr/bin/prometheus");
  private static final String MISSING = "no " + BINARY + ": apt-get install prometheus (.ci/run installs it)";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A scrape job.
   *
   * @param name its job name
   * @param target host:port
   * @param path the metrics' path
   * @param login user and password, for CouchDB's _prometheus (a server admin's)
   */
  record Job(String name, String target, String path, Optional<List<String>> login) {}

  private final Process process;
  private final int port;

  private Prometheus(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /**
   * @param test the test class, named where Prometheus is missing (the test then skips, or fails in CI)
   * @param jobs what it scrapes, every second
   * @return Prometheus, answering
   */
  static Prometheus start(Class<?> test, List<Job> jobs) throws IOException, InterruptedException {
    if (!Files.isExecutable(BINARY)) {
      Prerequisites.sayMissing(test, MISSING);
    }
    Prerequisites.require(Files.isExecutable(BINARY), MISSING);
    Path folder = Files.createDirectories(Path.of("target", "prometheus")).resolve(test.getSimpleName() + "-"
        + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(folder);
    StringBuilder config = new StringBuilder("global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\nscrape_configs:\n");
    for (Job job : jobs) {
      config.append("  - job_name: ").append(job.name()).append("\n    metrics_path: ").append(job.path())
          .append("\n    static_configs:\n      - targets: ['").append(job.target()).append("']\n");
      job.login().ifPresent(login -> config.append("    basic_auth:\n      username: ").append(login.get(0))
          .append("\n      password: ").append(login.get(1)).append('\n'));
    }
    Files.writeString(folder.resolve("prometheus.yml"), config);
    int port = FreePort.pick();
    Process process = new ProcessBuilder(BINARY.toString(), "--config.file=" + folder.resolve("prometheus.yml"),
        "--storage.tsdb.path=" + folder.resolve("data"), "--web.listen-address=127.0.0.1:" + port)
        .redirectErrorStream(true).redirectOutput(folder.resolve("prometheus.log").toFile()).start();
    Prometheus prometheus = new Prometheus(process, port);
    for (int attempt = 0; attempt < 100; attempt++) {
      if (prometheus.ready()) {
        return prometheus;
      }
      if (!process.isAlive()) {
        break;
      }
      Thread.sleep(100);
    }
    prometheus.close();
    throw new IllegalStateException("Prometheus did not answer on 127.0.0.1:" + port + ": see "
        + folder.resolve("prometheus.log"));
  }

  private boolean ready() {
    try {
      return get("/-/ready").statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * @param promql an instant query, evaluated now
   * @return its result: an array of {"metric": {...}, "value": [time, "value"]}
   */
  JsonNode query(String promql) throws IOException, InterruptedException {
    return query(promql, "");
  }

  /**
   * @param promql an instant query
   * @param at when it is evaluated
   * @return its result, as {@link #query(String)}'s
   */
  JsonNode query(String promql, Instant at) throws IOException, InterruptedException {
    return query(promql, "&time=" + at.toEpochMilli() / 1000.0);
  }

  private JsonNode query(String promql, String time) throws IOException, InterruptedException {
    HttpResponse<String> reply = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)
        + time);
    JsonNode json = JSON.readTree(reply.body());
    if (reply.statusCode() != 200 || !json.path("status").asText().equals("success")) {
      throw new IllegalStateException(promql + ": " + reply.statusCode() + " " + reply.body());
    }
    return json.path("data").path("result");
  }

  /**
   * Waits until a job's target has been scraped successfully.
   *
   * @param job the job's name
   * @param timeout how long at most
   */
  void awaitUp(String job, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode up = query("up{job=\"" + job + "\"}");
      if (up.size() == 1 && up.get(0).path("value").get(1).asText().equals("1")) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("Prometheus never scraped " + job + " in " + timeout + ": " + query("up"));
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
