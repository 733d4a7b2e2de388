package couchbench.run;

import couchbench.report.SummaryPage;
import couchbench.results.Results;
import java.nio.file.Path;

/**
 * What a run does besides its load, as Rally's telemetry devices are: the servers sampled each second, background
 * work, the cluster's report, the regression gate, the history line. Each is named and switched on by its setting
 * ({@link Spec}); the frame calls the hooks of every extension switched on, in the order they are listed, and knows
 * none of them by name. Every hook does nothing unless the extension says otherwise.
 */
public interface RunExtension {

  /**
   * Before anything is set up: refuses what this run cannot do with the extension, in one line.
   *
   * @param run the run
   * @throws couchbench.startup.OneLineException when the run cannot go on
   */
  default void check(RunContext run) {}

  /**
   * After the experiment is prepared, just before the load starts.
   *
   * @param run the run
   */
  default void loadStarts(RunContext run) {}

  /** Where the load's steady part begins: its start, or (Workload) the end of the phase that fills the database. */
  default void steadyLoadBegins() {}

  /**
   * As the load ends, before the report reads the servers: stop what runs, keep what it found.
   *
   * @param run the run
   */
  default void loadEnds(RunContext run) {}

  /**
   * @param results the run's results, before results.json is written
   * @return them with what the extension adds
   */
  default Results addTo(Results results) {
    return results;
  }

  /**
   * @param page the run's page so far
   * @param results the run's results, as results.json holds them
   * @param folder the run folder the page goes to
   * @return the page with what the extension shows
   */
  default SummaryPage addTo(SummaryPage page, Results results, Path folder) {
    return page;
  }

  /**
   * The run's last act, after results.json and the page are written (or could not be), and after the load's clean-up.
   *
   * @param run the run
   */
  default void runEnds(RunContext run) {}

  /**
   * An extension as `exec:java@extensions` lists it: what it is called, what switches it on, what it does, and what it
   * costs the load.
   *
   * @param name its name
   * @param setting the setting that switches it on (or off)
   * @param does what it does, one sentence
   * @param costs what it adds to the run, one sentence
   */
  record Spec(String name, String setting, String does, String costs) {}
}
