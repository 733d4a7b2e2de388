package couchbench.siege;

import couchbench.data.KeyFile;
import couchbench.report.SummaryPage;
import couchbench.results.RunLog;
import couchbench.results.RunOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * After MemSet, MemGet, CouchSet or CouchGet: the summary page of siege's figures, built from the run's alone; with
 * -Drounds=R, each figure's median and range over the rounds, then every round's figures.
 */
public final class SiegeSummary {

  private SiegeSummary() {}

  /**
   * The summary page of a run, from its figures; give it to {@link RunOutput#finish}.
   *
   * @param simulation the simulation's name, for the title: {@link RunOutput#simulation}
   * @param plan the run's parameters
   * @param request the request measured, by its name with one round, e.g. {@link MemcacheWorkloads#SET}
   * @param target what was loaded, e.g. the target's description
   * @param keysRead what a read simulation drew its keys from; empty for a write simulation
   * @param log what the run's simulation.log says; empty when it could not be read
   * @return the page
   */
  public static SummaryPage page(String simulation, SiegePlan plan, String request, String target,
      Optional<KeyFile.Keys> keysRead, Optional<RunLog> log) {
    SiegeRounds rounds = SiegeRounds.of(plan.rounds(), List.of(request),
        log.map(run -> SiegeFigures.of(run.requests())).orElse(Map.of()));
    SummaryPage head = SummaryPage.titled(simulation + ": siege's figures").line("Target: " + target + ".");
    SummaryPage page = keysRead.map(keys -> head.line("Keys read: " + keys.describe() + ", each request picking one"
            + " at random.")).orElse(head)
        .line(plan.describeLoad() + (plan.warmup().isZero() ? "." : ", after a warm-up of "
            + plan.warmup().toSeconds() + " s (its requests are named \"" + SiegePlan.WARMUP + "...\" in Gatling's"
            + " report and left out here)."));
    for (String warning : tooShort(plan, rounds)) {
      page = page.warning(warning);
    }
    if (!plan.rounds().repeated()) {
      return page.table("siege's figures", SiegeFigures.table(rounds.everyRound()));
    }
    return page.line("Figures: " + plan.rounds().describe() + "; each round's requests are named \"" + request
            + " round N\" in Gatling's report.")
        .table("siege's figures over the rounds", rounds.spreadTable("request"))
        .table("siege's figures, round by round", SiegeFigures.table(rounds.everyRound()));
  }

  /** The step-length rule's warnings: the steps, and each round's step whose users sent too few requests. */
  private static List<String> tooShort(SiegePlan plan, SiegeRounds rounds) {
    List<String> warnings = new ArrayList<>();
    StepLength.ofPlan(plan).ifPresent(warnings::add);
    rounds.everyRound().forEach((step, figures) ->
        StepLength.ofStep(step, figures, plan.users()).ifPresent(warnings::add));
    return warnings;
  }
}
