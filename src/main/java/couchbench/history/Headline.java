package couchbench.history;

import couchbench.results.Results;
import couchbench.rounds.Spread;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A simulation's headline figure, as its page leads with it, read from a run's results.json: a value per series (a
 * step, an operation, a feed), over the run's rounds, each series drawn in a chart of its group (BulkInsert's thread
 * count T) across the runs of a parameter set.
 *
 * @param title what it is, e.g. "documents a second"
 * @param unit its unit, e.g. "documents/s"; for a latency {@link #MICROS}, drawn in ms or µs
 * @param source where in results.json it is read and how, for the page
 * @param reader the figure of one run; empty when its results do not hold it
 */
record Headline(String title, String unit, String source, Function<Results, List<Reading>> reader) {

  /** The unit of a headline that is a latency: read in microseconds, drawn in ms where a value passes 1 ms. */
  static final String MICROS = "µs";

  /**
   * One series' figure in one run.
   *
   * @param chart the chart it is drawn in, e.g. "T=2"; "" for a headline of one chart
   * @param series its name, e.g. "bulk B=64"
   * @param value its value over the run's rounds
   */
  record Reading(String chart, String series, Spread value) {}

  /**
   * One series' figure in one round.
   *
   * @param chart the chart it is drawn in
   * @param series its name, the round left out
   * @param value its value in that round
   */
  record Round(String chart, String series, double value) {}

  /** @return whether it is a latency, drawn in ms or µs */
  boolean latency() {
    return unit.equals(MICROS);
  }

  /**
   * @param run a run's results
   * @return its figure, a reading per series; empty when the run does not hold it
   */
  List<Reading> read(Results run) {
    return reader.apply(run);
  }

  /**
   * @param rounds each series' value in each round, in the order read
   * @return each series' spread over its rounds, in the order first read
   */
  static List<Reading> overRounds(List<Round> rounds) {
    Map<List<String>, List<Double>> bySeries = new LinkedHashMap<>();
    rounds.forEach(round -> bySeries.computeIfAbsent(List.of(round.chart(), round.series()), any -> new ArrayList<>())
        .add(round.value()));
    return bySeries.entrySet().stream().map(series -> new Reading(series.getKey().get(0), series.getKey().get(1),
        Spread.of(series.getValue()))).toList();
  }
}
