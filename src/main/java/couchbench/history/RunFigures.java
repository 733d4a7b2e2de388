package couchbench.history;

import couchbench.results.Results;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's measured requests, each with its entries over the run's rounds ("memcache get round 2" is a round of
 * "memcache get"), warm-ups and requests without an OK one left out: what the gate and the history read of a run.
 */
final class RunFigures {

  private final Map<String, List<Results.Entry>> byRequest;

  private RunFigures(Map<String, List<Results.Entry>> byRequest) {
    this.byRequest = byRequest;
  }

  /**
   * @param results a run's results
   * @return its requests' entries, by request name with one round, in the order results.json lists them
   */
  static RunFigures of(Results results) {
    Rounds rounds = rounds(results);
    Map<String, List<Results.Entry>> byRequest = new LinkedHashMap<>();
    for (Results.Entry entry : results.requests()) {
      if (entry.warmUp() || entry.ok() == 0) {
        continue;
      }
      String name = rounds.withoutRound(entry.name()) + (entry.kind().equals("group") ? " (group)" : "");
      byRequest.computeIfAbsent(name, any -> new ArrayList<>()).add(entry);
    }
    return new RunFigures(byRequest);
  }

  /**
   * @param results a run's results
   * @return its rounds, as its parameters give them
   */
  static Rounds rounds(Results results) {
    return new Rounds(Integer.parseInt(results.run().parameters().getOrDefault(Rounds.PARAMETER, "1")));
  }

  /** @return the requests measured, e.g. "memcache get", a group as "write (group)", in order */
  List<String> requests() {
    return List.copyOf(byRequest.keySet());
  }

  /**
   * @param request one of {@link #requests}
   * @param figure the figure
   * @return its spread over the run's rounds: one value without rounds
   */
  Spread spread(String request, Figure figure) {
    return Spread.of(byRequest.get(request).stream().map(figure::of).toList());
  }
}
