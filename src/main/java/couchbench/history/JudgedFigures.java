package couchbench.history;

import couchbench.results.Results;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of one run that a comparison of runs judges, one value each: every measured request's throughput, p50,
 * p99 and p99.9 (as the gate reads them), then the simulation's own headline figures (as History draws them). Variants
 * read these from each round's run.
 */
public final class JudgedFigures {

  /** A request's figures, in the order they are judged. */
  static final List<Figure> OF_A_REQUEST = List.of(Figure.THROUGHPUT, Figure.P50, Figure.P99, Figure.P999);

  /**
   * One figure of one run.
   *
   * @param subject what it is of: a request's name, or a headline's series, e.g. "bulk B=64 T=2"
   * @param figure which figure, e.g. "p99" or "documents a second, per B and T"
   * @param unit its unit, "us" or {@code µs} for a latency
   * @param higherIsWorse whether a higher value is worse: a latency or a time
   * @param value its value in the run; the median of the run's rounds where it had several
   * @param headline whether it is one of the simulation's headline figures, not a request's
   */
  public record Value(String subject, String figure, String unit, boolean higherIsWorse, double value,
      boolean headline) {

    /** @return what tells it from the run's other figures, e.g. "memcache get: p99" */
    public String key() {
      return subject + ": " + figure;
    }

    /** @return whether it is a latency or a time, kept in microseconds and drawn in ms where it passes 1 ms */
    public boolean micros() {
      return unit.equals("us") || unit.equals(Headline.MICROS);
    }
  }

  private JudgedFigures() {}

  /**
   * @param run a run's results
   * @return its figures, the requests' first in results.json's order, then its headline's
   */
  public static List<Value> of(Results run) {
    List<Value> values = new ArrayList<>();
    RunFigures requests = RunFigures.of(run);
    for (String request : requests.requests()) {
      for (Figure figure : OF_A_REQUEST) {
        values.add(new Value(request, figure.label(), figure.unit(), figure.higherIsWorse(),
            requests.spread(request, figure).median(), false));
      }
    }
    // A simulation without a headline of its own is drawn by its requests' rates, which are judged above already.
    for (Headline headline : Headlines.BY_SIMULATION.getOrDefault(run.run().simulation(), List.of())) {
      for (Headline.Reading reading : headline.read(run)) {
        String series = reading.chart().isEmpty() || reading.series().endsWith(reading.chart()) ? reading.series()
            : reading.chart() + " " + reading.series();
        values.add(new Value(series, headline.title(), headline.unit(), headline.latency(), reading.value().median(),
            true));
      }
    }
    return values;
  }
}
