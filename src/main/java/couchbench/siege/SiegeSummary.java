package couchbench.siege;

import couchbench.curve.CurvePage;
import couchbench.curve.CurvePlan;
import couchbench.curve.StaircaseLoad;
import couchbench.curve.StepFigures;
import couchbench.data.KeyFile;
import couchbench.report.SummaryPage;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.scaleout.InjectorShare;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * After MemSet, MemGet, CouchSet or CouchGet: the summary page of siege's figures, built from the run's results alone;
 * with -Drounds=R, each figure's median and range over the rounds, then every round's figures. For the merged run of
 * several injectors, the same page of the added-up results.
 */
public final class SiegeSummary implements Summary<SiegeSummary.Figures> {

  private final String simulation;
  private final SiegePlan plan;
  private final List<String> requests;

  /**
   * What the page shows beyond results.json's entries.
   *
   * @param keysRead what a read simulation drew its keys from, e.g. "all 1,200 keys of data/keys/memcache.csv"; null
   *     for a write simulation
   * @param steps with -Dtargets, the staircase's steps, in the order they ran; empty without (null in a results.json
   *     from before staircases)
   * @param highestRate with -Dtargets, the highest rate asked that met the goal; null when none did or without
   */
  public record Figures(String keysRead, List<StepFigures> steps, Double highestRate) {

    /** A write simulation's: it read no keys. */
    public static final Figures WRITE = new Figures(null, List.of(), null);

    /**
     * @param keys the keys a read simulation drew from
     * @return its figures
     */
    public static Figures reading(KeyFile.Keys keys) {
      return new Figures(keys.describe(), List.of(), null);
    }

    /**
     * @param staircase the staircase the users climbed, with -Dtargets
     * @return these figures with its steps and its highest rate that met the goal; these figures without one
     */
    public Figures climbed(Optional<StaircaseLoad> staircase) {
      return staircase.map(StaircaseLoad::steps).map(run -> new Figures(keysRead, run, StepFigures.highestMet(run)))
          .orElse(this);
    }

    List<StepFigures> stepsRun() {
      return steps == null ? List.of() : steps;
    }
  }

  private SiegeSummary(String simulation, SiegePlan plan, List<String> requests) {
    this.simulation = simulation;
    this.plan = plan;
    this.requests = requests;
  }

  /**
   * @param simulation the simulation's name, for the title: {@link couchbench.results.RunOutput#simulation}
   * @param plan the run's parameters: the live plan of a run, the whole run's for a merged one
   * @param requests the requests measured, by their names with one round, e.g. {@link MemcacheWorkloads#SET}: the
   *     first is the simulation's own, the others its outcomes under other names (MemGet's expired keys), shown where
   *     there are any
   * @return the summary; give it to {@link couchbench.results.RunOutput#finish}
   */
  public static SiegeSummary of(String simulation, SiegePlan plan, String... requests) {
    return new SiegeSummary(simulation, plan, List.of(requests));
  }

  @Override
  public Class<Figures> figuresType() {
    return Figures.class;
  }

  /**
   * The keys read are the injectors' one description when they share it (one key file), else each injector's; a
   * staircase's steps are the injectors' steps added up, each judged again on the whole.
   */
  @Override
  public Figures merge(List<Figures> injectors) {
    List<String> described = injectors.stream().map(Figures::keysRead).filter(Objects::nonNull).distinct().toList();
    String keysRead = described.size() <= 1 ? (described.isEmpty() ? null : described.get(0))
        : String.join("; ", InjectorShare.prefixed(injectors.stream()
            .map(each -> Stream.ofNullable(each.keysRead()).toList()).toList()));
    List<StepFigures> steps = StepFigures.merged(injectors.stream().map(Figures::stepsRun).toList(),
        plan.curve().flatMap(CurvePlan::goal));
    return new Figures(keysRead, steps, StepFigures.highestMet(steps));
  }

  @Override
  public SummaryPage page(Results results, Figures figures) {
    SiegeRounds rounds = SiegeRounds.of(plan.rounds(), requests, SiegeFigures.of(results, "request"));
    SummaryPage page = SummaryPage.titled(simulation + ": siege's figures")
        .line("Target: " + String.join("; ", results.run().targets()) + ".");
    if (figures.keysRead() != null) {
      page = page.line("Keys read: " + figures.keysRead() + ", each request picking one at random.");
    } else {
      page = page.line("Values written: " + plan.valueSizes().describe() + " of random text under each new key"
          + (plan.valueSizes().fixed() ? "." : ", the size drawn from the key (-DvalueSize=" + plan.valueSizes()
              + ")."));
    }
    page = page.line(plan.describeLoad() + (plan.warmup().isZero() ? "." : ", after a warm-up of "
            + plan.warmup().toSeconds() + " s (its requests are named \"" + SiegePlan.WARMUP + "...\" in Gatling's"
            + " report and left out here)."));
    for (String line : Stream.of(SiegeFigures.timing(results), SiegeFigures.merged(results)).flatMap(Optional::stream)
        .toList()) {
      page = page.line(line);
    }
    for (String warning : tooShort(rounds)) {
      page = page.warning(warning);
    }
    if (!figures.stepsRun().isEmpty()) {
      // The staircase's figures first; siege's below are the whole run's, every step's requests together.
      page = CurvePage.addTo(page, plan.curve().map(CurvePlan::describe).orElse("-Dtargets"),
          Map.of(simulation, figures.stepsRun()), Collections.singletonMap(simulation, figures.highestRate()));
    }
    if (!plan.rounds().repeated()) {
      return page.table("siege's figures", SiegeFigures.table(rounds.everyRound()));
    }
    return page.line("Figures: " + plan.rounds().describe() + "; each round's requests are named \"" + requests.get(0)
            + " round N\" in Gatling's report.")
        .table("siege's figures over the rounds", rounds.spreadTable("request"))
        .table("siege's figures, round by round", SiegeFigures.table(rounds.everyRound()));
  }

  /** The step-length rule's warnings: the steps, and each round's step whose users sent too few requests. */
  private List<String> tooShort(SiegeRounds rounds) {
    List<String> warnings = new ArrayList<>();
    if (plan.curve().isPresent()) {
      return warnings; // a staircase's steps have their own length, and its search its own least (CurvePlan#search)
    }
    ShortSteps.ofPlan(plan).ifPresent(warnings::add);
    rounds.everyRound().forEach((step, figures) ->
        ShortSteps.ofStep(step, figures, plan.users()).ifPresent(warnings::add));
    return warnings;
  }
}
