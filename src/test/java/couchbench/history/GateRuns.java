package couchbench.history;

import couchbench.results.Results;
import couchbench.results.ResultsFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs as results.json holds them, of one request with known rates and latencies per round, for the gate's tests. */
final class GateRuns {

  private GateRuns() {}

  /**
   * @param simulation the simulation
   * @param parameters its parameters ("rounds" gives each value its round)
   * @param start when it started, e.g. "2026-12-01T10:00:00Z"
   * @param p99s the request's p99 in each round, microseconds
   * @param rate its rate in every round (its window is 10 s: its transactions a second are 100 of its 1,000 OK)
   * @return the run
   */
  static Results run(String simulation, Map<String, String> parameters, String start, List<Double> p99s,
      double rate) {
    List<Results.Entry> entries = new ArrayList<>();
    String lastEnd = Instant.parse(start).plusSeconds(10).toString();
    for (int round = 1; round <= p99s.size(); round++) {
      String name = "memcache get" + (p99s.size() > 1 ? " round " + round : "");
      double p99 = p99s.get(round - 1);
      entries.add(new Results.Entry(name, "request", Results.CLIENT_CLOCK, false, 1000, 1000, 0, Map.of(), rate,
          new Results.Latency("us", 10.0, p99 / 2, p99 / 2, p99 / 2, p99, p99, p99, p99), "ok:" + name,
          "ko:" + name, start, lastEnd));
    }
    entries.add(new Results.Entry("warm-up memcache get", "request", Results.CLIENT_CLOCK, true, 5, 5, 0, Map.of(),
        1, new Results.Latency("us", 1.0, 1, 1, 1, 1e6, 1e6, 1e6, 1e6), "ok:w", "ko:w", start, start));
    Instant end = Instant.parse(start).plusSeconds(30);
    return new Results(Results.SCHEMA, new Results.Run(simulation, parameters, List.of("memcache 127.0.0.1:11211"),
        new Results.Versions("test", "3.15.1", "21"), start, end.toString(), null, 5, "histograms.hlog", null, null),
        entries, Map.of(), List.of(), List.of(), null);
  }

  /** Writes the run's results.json into root/folder; returns the folder. */
  static Path write(Path root, String folder, Results results) {
    try {
      return ResultsFile.write(Files.createDirectories(root.resolve(folder)), results).getParent();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
