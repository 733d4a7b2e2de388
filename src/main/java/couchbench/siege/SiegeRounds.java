package couchbench.siege;

import couchbench.report.Table;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * Siege's figures of a run's requests over its rounds ({@code -Drounds}): every round's figures under the round's
 * request name, and each figure's median and range over the rounds.
 *
 * @param rounds the run's rounds
 * @param byRequest per request, by its name with one round: its rounds' figures by their request names, in round
 *     order; a round that sent none of it has no entry, a request no round sent none
 */
public record SiegeRounds(Rounds rounds, Map<String, Map<String, SiegeFigures>> byRequest) {

  /**
   * The figures of siege's table that have a spread over the rounds, in its order: not its successful transactions,
   * which are its transactions, nor its throughput, which is n/a.
   */
  private static final Map<String, ToDoubleFunction<SiegeFigures>> FIGURES = figures();

  /**
   * @param rounds the run's rounds
   * @param requests the requests, by their names with one round, e.g. {@code memcache set}
   * @param figures the run's figures by request name, e.g. {@code memcache set round 2}; others are left out
   * @return the requests' figures, round by round
   */
  public static SiegeRounds of(Rounds rounds, List<String> requests, Map<String, SiegeFigures> figures) {
    Map<String, Map<String, SiegeFigures>> byRequest = new LinkedHashMap<>();
    for (String request : requests) {
      Map<String, SiegeFigures> ofRounds = new LinkedHashMap<>();
      rounds.numbers().stream().map(round -> rounds.name(request, round)).filter(figures::containsKey)
          .forEach(name -> ofRounds.put(name, figures.get(name)));
      if (!ofRounds.isEmpty()) {
        byRequest.put(request, ofRounds);
      }
    }
    return new SiegeRounds(rounds, byRequest);
  }

  /** @return every round's figures by its request name, request after request: with one round, a request's own */
  public Map<String, SiegeFigures> everyRound() {
    Map<String, SiegeFigures> all = new LinkedHashMap<>();
    byRequest.values().forEach(all::putAll);
    return all;
  }

  /**
   * @param request a request's name with one round
   * @param figure one of siege's figures
   * @return its median and range over the rounds where it is a number; empty where it is in none
   */
  public Optional<Spread> spread(String request, ToDoubleFunction<SiegeFigures> figure) {
    List<Double> values = byRequest.getOrDefault(request, Map.of()).values().stream()
        .mapToDouble(figure).filter(value -> !Double.isNaN(value)).boxed().toList();
    return values.isEmpty() ? Optional.empty() : Optional.of(Spread.of(values));
  }

  /**
   * Siege's figures over the rounds, a row per request and figure: its median, the smallest and the largest round,
   * and how many rounds it rests on (a figure that is n/a in a round, e.g. a response time without transactions,
   * rests on the others).
   *
   * @param nameColumn the first column's heading, e.g. "request"
   * @return the table
   */
  public Table spreadTable(String nameColumn) {
    Table table = Table.of(nameColumn, "figure", "median", "min", "max", "rounds");
    for (String request : byRequest.keySet()) {
      for (Map.Entry<String, ToDoubleFunction<SiegeFigures>> figure : FIGURES.entrySet()) {
        Optional<Spread> spread = spread(request, figure.getValue());
        table = spread.isPresent()
            ? table.row(request, figure.getKey(), spread.get().median(), spread.get().min(), spread.get().max(),
                spread.get().rounds())
            : table.row(request, figure.getKey(), "n/a", "n/a", "n/a", 0);
      }
    }
    return table;
  }

  private static Map<String, ToDoubleFunction<SiegeFigures>> figures() {
    Map<String, ToDoubleFunction<SiegeFigures>> figures = new LinkedHashMap<>();
    figures.put("transactions", SiegeFigures::transactions);
    figures.put("availability (%)", SiegeFigures::availabilityPercent);
    figures.put("elapsed time (s)", SiegeFigures::elapsedSeconds);
    figures.put("response time (s)", SiegeFigures::responseTimeSeconds);
    figures.put("transaction rate (trans/s)", SiegeFigures::transactionRate);
    figures.put("concurrency", SiegeFigures::concurrency);
    figures.put("failed transactions", SiegeFigures::failed);
    figures.put("longest transaction (s)", SiegeFigures::longestSeconds);
    figures.put("shortest transaction (s)", SiegeFigures::shortestSeconds);
    return Collections.unmodifiableMap(figures);
  }
}
