package couchbench.siege;

import couchbench.data.KeyFile;
import couchbench.report.SummaryPage;
import couchbench.results.RunLog;
import couchbench.results.RunOutput;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** After MemSet, MemGet, CouchSet or CouchGet: the summary page of siege's figures, built from the run's alone. */
public final class SiegeSummary {

  private SiegeSummary() {}

  /**
   * The summary page of a run, from its figures; give it to {@link RunOutput#finish}.
   *
   * @param simulation the simulation's name, for the title: {@link RunOutput#simulation}
   * @param plan the run's parameters
   * @param target what was loaded, e.g. the target's description
   * @param keysRead what a read simulation drew its keys from; empty for a write simulation
   * @param log what the run's simulation.log says; empty when it could not be read
   * @return the page
   */
  public static SummaryPage page(String simulation, SiegePlan plan, String target, Optional<KeyFile.Keys> keysRead,
      Optional<RunLog> log) {
    Map<String, SiegeFigures> figures = new LinkedHashMap<>(log.map(run -> SiegeFigures.of(run.requests()))
        .orElse(Map.of()));
    figures.keySet().removeIf(SiegePlan::isWarmUp);
    SummaryPage head = SummaryPage.titled(simulation + ": siege's figures").line("Target: " + target + ".");
    return keysRead.map(keys -> head.line("Keys read: " + keys.describe() + ", each request picking one at random."))
        .orElse(head)
        .line(plan.describeLoad() + (plan.warmup().isZero() ? "." : ", after a warm-up of "
            + plan.warmup().toSeconds() + " s (its requests are named \"" + SiegePlan.WARMUP + "...\" in Gatling's"
            + " report and left out here)."))
        .table("siege's figures", SiegeFigures.table(figures));
  }
}
