package couchbench.history;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.ResultsException;
import couchbench.results.ResultsFile;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/**
 * The regression gate, -Dbaseline=RUN_FOLDER (or last) with -Dregression=p99:10%,throughput:5%: the run just made
 * against a baseline run of the same simulation and parameters of the load ({@link LoadParameters}), figure by figure, request by request ({@link
 * Verdict}). A figure that regressed is a line each, and the run ends with {@link #REGRESSED}; a baseline that cannot
 * be compared is one line, and the run ends with {@link #NOT_JUDGED}.
 */
public final class Gate {

  /** The exit code of a run whose figures regressed. */
  public static final int REGRESSED = 5;

  /** The exit code of a run the gate could not judge: its baseline is of another simulation or other parameters. */
  public static final int NOT_JUDGED = 6;

  /** The file a gated run's verdict goes to, beside its results.json; -Dbaseline=last passes by the regressed. */
  static final String VERDICT = "regression-gate.txt";

  /** What -Dbaseline=last means: the last earlier run of the same simulation and parameters. */
  static final String LAST = "last";

  private final String baseline;
  private final List<Regression> rules;
  private final Path root;

  /**
   * The gate's judgement of a run.
   *
   * @param baseline the baseline's folder; null when none could be compared
   * @param verdicts each figure's verdict, request by request
   * @param notJudged why the run was not judged; null when it was
   */
  public record Judgement(Path baseline, List<Verdict> verdicts, String notJudged) {

    /** @return whether a figure regressed */
    public boolean regressed() {
      return verdicts.stream().anyMatch(Verdict::regressed);
    }
  }

  private Gate(String baseline, List<Regression> rules, Path root) {
    this.baseline = baseline;
    this.rules = rules;
    this.root = root;
  }

  /**
   * @param settings baseline, regression
   * @param root the results root, where -Dbaseline=last looks
   * @return the gate; empty without -Dbaseline
   * @throws SettingsException for -Dregression without -Dbaseline, thresholds that do not parse, or a baseline folder
   *     without a results.json, before the load
   */
  public static Optional<Gate> from(Settings settings, Path root) {
    Optional<String> baseline = settings.value("baseline");
    if (baseline.isEmpty()) {
      if (settings.value("regression").isPresent()) {
        throw new SettingsException("-Dregression needs a baseline: give -Dbaseline=reports/<run folder>, or"
            + " -Dbaseline=last for the last run of the same simulation and parameters");
      }
      return Optional.empty();
    }
    List<Regression> rules = Regression.parse(settings.get("regression", Regression.DEFAULT));
    String given = settings.get("baseline", "");
    if (!given.equals(LAST)) {
      try {
        ResultsFile.read(Path.of(given));
      } catch (ResultsException e) {
        throw new SettingsException("-Dbaseline=" + given + ": " + e.getMessage() + "; give a run folder under "
            + root + " holding a results.json (a relative path is from the working directory), or -Dbaseline=last");
      }
    }
    return Optional.of(new Gate(given, rules, root));
  }

  /**
   * @param run the run just made, before its results.json is written (so that -Dbaseline=last is an earlier one)
   * @return the run against the baseline
   */
  public Judgement judge(Results run) {
    Optional<Path> folder = baseline.equals(LAST) ? last(run) : Optional.of(Path.of(baseline));
    if (folder.isEmpty()) {
      return new Judgement(null, List.of(), "no earlier run of " + run.run().simulation() + " with these parameters"
          + " under " + root + ": run it once without -Dbaseline, or name a run folder");
    }
    Results base;
    try {
      base = ResultsFile.read(folder.get());
    } catch (ResultsException e) {
      return new Judgement(null, List.of(), e.getMessage());
    }
    List<String> differences = differences(base.run(), run.run());
    if (!differences.isEmpty()) {
      return new Judgement(null, List.of(), "the baseline " + folder.get() + " differs from this run: "
          + String.join("; ", differences) + "; give a baseline of the same simulation and parameters");
    }
    RunFigures before = RunFigures.of(base);
    RunFigures now = RunFigures.of(run);
    List<Verdict> verdicts = new ArrayList<>();
    for (String request : now.requests()) {
      if (before.requests().contains(request)) {
        rules.forEach(rule -> verdicts.add(Verdict.of(request, rule, before.spread(request, rule.figure()),
            now.spread(request, rule.figure()))));
      }
    }
    return new Judgement(folder.get(), verdicts, verdicts.isEmpty()
        ? "the baseline " + folder.get() + " measured none of this run's requests" : null);
  }

  /**
   * @param a a run
   * @param b another
   * @return how they differ in simulation and load parameters ({@link LoadParameters}), one phrase each
   */
  static List<String> differences(Results.Run a, Results.Run b) {
    List<String> differences = new ArrayList<>();
    if (!a.simulation().equals(b.simulation())) {
      differences.add("simulation " + a.simulation() + " against " + b.simulation());
    }
    differences.addAll(LoadParameters.differences(a.parameters(), b.parameters()));
    return differences;
  }

  // The earlier run of the same simulation and parameters that ended last, and did not regress against its own baseline
  // (else a regression would become the next run's baseline and pass); folders that cannot be read are passed by.
  private Optional<Path> last(Results run) {
    TreeMap<String, Path> byEnd = new TreeMap<>();
    for (Map.Entry<Path, Results> earlier : RunHistory.read(root).runs().entrySet()) {
      if (differences(earlier.getValue().run(), run.run()).isEmpty() && earlier.getValue().run().end() != null
          && !regressed(earlier.getKey())) {
        byEnd.put(earlier.getValue().run().end(), earlier.getKey());
      }
    }
    return byEnd.isEmpty() ? Optional.empty() : Optional.of(byEnd.lastEntry().getValue());
  }

  private static boolean regressed(Path folder) {
    try {
      Path verdict = folder.resolve(VERDICT);
      return Files.exists(verdict) && Files.readString(verdict).startsWith("REGRESSED");
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Judges the run, says each regressed figure (or why it was not judged) in a line, asks for the exit code, and puts
   * the verdicts at the top of the page.
   *
   * @param page the run's page
   * @param run the run just made
   * @param folder its folder, where the verdict is kept for -Dbaseline=last ({@link #VERDICT})
   * @param exitWith where the exit code goes
   * @return the page with the gate's verdict first
   */
  public SummaryPage addTo(SummaryPage page, Results run, Path folder, IntConsumer exitWith) {
    Judgement judgement = judge(run);
    if (judgement.notJudged() != null) {
      Console.warn("regression gate: not judged: " + judgement.notJudged());
      keep(folder, List.of("NOT JUDGED: " + judgement.notJudged()));
      exitWith.accept(NOT_JUDGED);
      return page.warningsFirst(List.of("Regression gate: not judged: " + judgement.notJudged() + "."));
    }
    keep(folder, Stream.concat(Stream.of((judgement.regressed() ? "REGRESSED" : "passed") + " against "
        + judgement.baseline()), judgement.verdicts().stream().map(Verdict::describe)).toList());
    judgement.verdicts().stream().filter(Verdict::regressed)
        .forEach(verdict -> Console.say("regression gate: " + verdict.describe()));
    if (judgement.regressed()) {
      exitWith.accept(REGRESSED);
    }
    long regressed = judgement.verdicts().stream().filter(Verdict::regressed).count();
    Console.say("regression gate: " + (regressed == 0 ? "passed" : regressed + " of " + judgement.verdicts().size()
        + " figures regressed") + " against " + judgement.baseline());
    Table table = Table.of("request", "figure", "baseline", "this run", "worse (%)", "threshold (%)", "rounds",
        "noise test", "verdict");
    for (Verdict verdict : judgement.verdicts()) {
      table = table.row(verdict.request(), verdict.figure().label() + " (" + verdict.figure().unit() + ")",
          verdict.baseline().median(), verdict.run().median(), Math.round(verdict.worse() * 1000) / 10.0,
          verdict.threshold() * 100, verdict.run().rounds() + " against " + verdict.baseline().rounds(),
          !verdict.noiseTested() ? "none: one measurement each" : verdict.roundsApart() ? "ranges apart"
              : "ranges overlap", verdict.regressed() ? "REGRESSED" : "passed");
    }
    String line = "Regression gate against " + judgement.baseline() + ": " + (regressed == 0 ? "passed"
        : regressed + " of " + judgement.verdicts().size() + " figures regressed") + ". A figure regresses when it is"
        + " worse than the baseline's by more than its threshold and, where both runs had rounds, every round of this"
        + " run is worse than every round of the baseline (the Mann-Whitney test at U = 0: no distribution assumed;"
        + " with 3 rounds against 3, noise alone fails a figure once in 20). Without rounds the verdict rests on one"
        + " measurement.";
    return (regressed == 0 ? page.linesFirst(List.of(line)) : page.warningsFirst(List.of(line)))
        .table("the regression gate, figure by figure", table);
  }

  // The verdict beside the run's results: its first line says whether it regressed.
  private static void keep(Path folder, List<String> lines) {
    try {
      Files.write(folder.resolve(VERDICT), lines);
    } catch (IOException e) {
      Console.say("regression gate: " + VERDICT + " not written (" + e.getMessage() + "): -Dbaseline=last may pick"
          + " this run");
    }
  }
}
