package couchbench.results;

import java.util.Optional;

/**
 * Where the recorders a simulation makes for itself (a staircase's) send their figures for live metrics: the run's
 * {@link LiveFigures} once {@link RunOutput#serveLive} names them, nowhere before or without. A run is one JVM; the
 * recorders are made as the simulation is built, before the run extensions start, so they look it up as they record.
 */
public final class LiveRoute {

  private static final LiveFigures NOWHERE = new LiveFigures() {
    @Override
    public void response(String name, long startMillis, long endMillis, boolean ok) {}

    @Override
    public void user(String scenario, boolean start) {}

    @Override
    public void clientSecond(String name, boolean ok, org.HdrHistogram.Histogram nanos) {}

    @Override
    public void intendedTime(String operation, boolean ok, long nanos) {}

    @Override
    public void stepBegins(String system, int step, double rate) {}
  };

  private static volatile Optional<LiveFigures> served = Optional.empty();

  private LiveRoute() {}

  /** @return the run's live figures, or a sink that keeps nothing when none are served */
  public static LiveFigures current() {
    return served.orElse(NOWHERE);
  }

  /** @return the run's live figures, none when none are served: for taps that cost the load only when they are */
  static Optional<LiveFigures> served() {
    return served;
  }

  static void to(LiveFigures figures) {
    served = Optional.of(figures);
  }
}
