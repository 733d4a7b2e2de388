package couchbench.simulation;

import couchbench.background.BackgroundExtension;
import couchbench.history.GateExtension;
import couchbench.history.HistoryLine;
import couchbench.metrics.MetricsExtension;
import couchbench.resources.ServerSampling;
import couchbench.run.RunExtension;
import couchbench.startup.Settings;
import couchbench.trend.TrendExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Every run extension couchbench has, in the order a run calls them, each with how its settings switch it on; {@link
 * #main} lists them, as `esrally list telemetry` lists Rally's devices: {@code mvn -q exec:java@extensions}.
 */
public final class RunExtensions {

  /** An extension, and how a run's settings make it: empty when they leave it off. */
  private record Known(RunExtension.Spec spec, Function<Settings, Optional<RunExtension>> from) {}

  // Live metrics first, so that a port taken stops the run before anything else starts; the sampler next, so that it
  // is running when the others start; background work stops before the cluster's figures are read after the load.
  private static final List<Known> ALL = List.of(
      new Known(MetricsExtension.SPEC, MetricsExtension::from),
      new Known(ServerSampling.SPEC, ServerSampling::from),
      new Known(BackgroundExtension.SPEC, BackgroundExtension::from),
      new Known(ClusterExtension.SPEC, ClusterExtension::from),
      new Known(GateExtension.SPEC, GateExtension::from),
      new Known(TrendExtension.SPEC, TrendExtension::from),
      new Known(HistoryLine.SPEC, settings -> Optional.of(new HistoryLine())));

  private RunExtensions() {}

  /**
   * @param settings the run's settings
   * @return the extensions they switch on, in the order a run calls them
   * @throws couchbench.startup.SettingsException when an extension's settings do not parse
   */
  static List<RunExtension> switchedOn(Settings settings) {
    List<RunExtension> on = new ArrayList<>();
    for (Known known : ALL) {
      known.from().apply(settings).ifPresent(on::add);
    }
    return on;
  }

  /**
   * Prints every extension, one paragraph each.
   *
   * @param args none
   */
  public static void main(String[] args) {
    for (Known known : ALL) {
      RunExtension.Spec spec = known.spec();
      System.out.println(spec.name() + " (" + spec.setting() + ")\n  does:  " + spec.does() + "\n  costs: "
          + spec.costs() + "\n");
    }
  }
}
