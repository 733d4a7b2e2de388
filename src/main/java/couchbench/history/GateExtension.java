package couchbench.history;

import couchbench.report.SummaryPage;
import couchbench.results.Results;
import couchbench.results.RunFolders;
import couchbench.run.RunExtension;
import couchbench.startup.AtExit;
import couchbench.startup.Settings;
import java.nio.file.Path;
import java.util.Optional;

/** The run extension of -Dbaseline: the run judged against its baseline as its page is written ({@link Gate}). */
public final class GateExtension implements RunExtension {

  /** How `exec:java@extensions` lists it. */
  public static final Spec SPEC = new Spec("gate", "-Dbaseline=last|<run folder>, -Dregression=p99:10%,...",
      "judges the run against an earlier one of the same simulation and parameters: exit code 5 when a figure"
          + " regressed, 6 when the baseline cannot be compared, the verdicts at the top of the page",
      "nothing during the load: it reads results.json files after it");

  private final Gate gate;

  private GateExtension(Gate gate) {
    this.gate = gate;
  }

  /**
   * @param settings the run's settings
   * @return the extension, with -Dbaseline
   * @throws couchbench.startup.SettingsException as {@link Gate#from} does, before the load
   */
  public static Optional<RunExtension> from(Settings settings) {
    return Gate.from(settings, RunFolders.resultsRoot()).map(GateExtension::new);
  }

  @Override
  public SummaryPage addTo(SummaryPage page, Results results, Path folder) {
    return gate.addTo(page, results, folder, AtExit::exitWith);
  }
}
