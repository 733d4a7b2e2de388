package couchbench.history;

import couchbench.results.Results;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/** A headline figure of a request across runs, as results.json gives it: its rate, or a latency of its OK requests. */
public enum Figure {
  THROUGHPUT("throughput", "requests/s", false, Results.Entry::ratePerSecond),
  MEAN("mean", "us", true, entry -> entry.latency().mean()),
  P50("p50", "us", true, entry -> entry.latency().p50()),
  P90("p90", "us", true, entry -> entry.latency().p90()),
  P99("p99", "us", true, entry -> entry.latency().p99()),
  P999("p99.9", "us", true, entry -> entry.latency().p999()),
  MAX("max", "us", true, entry -> entry.latency().max());

  private final String label;
  private final String unit;
  private final boolean higherIsWorse;
  private final ToDoubleFunction<Results.Entry> value;

  Figure(String label, String unit, boolean higherIsWorse, ToDoubleFunction<Results.Entry> value) {
    this.label = label;
    this.unit = unit;
    this.higherIsWorse = higherIsWorse;
    this.value = value;
  }

  /** @return its name in -Dregression and on pages, e.g. "p99.9" */
  public String label() {
    return label;
  }

  /** @return its unit, e.g. "us" */
  public String unit() {
    return unit;
  }

  /** @return whether a higher value is worse: a latency; a rate is worse lower */
  public boolean higherIsWorse() {
    return higherIsWorse;
  }

  /**
   * @param entry a request's entry in results.json, with OK requests
   * @return the figure
   */
  public double of(Results.Entry entry) {
    return value.applyAsDouble(entry);
  }

  /**
   * @param label e.g. "p99" or "throughput", any case
   * @return the figure, or null for none
   */
  static Figure named(String label) {
    return Arrays.stream(values()).filter(figure -> figure.label.equals(label.trim().toLowerCase(Locale.ROOT)))
        .findFirst().orElse(null);
  }

  /** @return every figure's label, for a message */
  static String labels() {
    return Arrays.stream(values()).map(Figure::label).collect(Collectors.joining(", "));
  }
}
