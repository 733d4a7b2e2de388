package couchbench.variants;

import couchbench.history.Gate;
import couchbench.history.JudgedFigures;
import couchbench.history.Regression;
import couchbench.history.Verdict;
import couchbench.results.ResultsFile;
import couchbench.results.RunFolders;
import couchbench.rounds.Spread;
import couchbench.startup.AtExit;
import couchbench.startup.Console;
import couchbench.startup.Settings;
import couchbench.startup.Startup;
import couchbench.targets.CouchTarget;
import couchbench.targets.Targets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A run with -Dvariants: the simulation's JVM conducts instead of loading. It runs the simulation once per variant and
 * round ({@link VariantPlan#order}), each a run of its own ({@link RoundRunner}), the variant's CouchDB settings applied
 * before its rounds and the originals restored after ({@link ConfigGuard}); then it judges each figure of the rounds'
 * results.json ({@link Comparison}), writes the page and variants.json in a folder of its own, and exits: 0, or the
 * gate's {@link Gate#REGRESSED} when -Dregression finds a variant worse than the first.
 */
public final class VariantsRun {

  private final String simulation;
  private final Settings settings;
  private final VariantPlan plan;
  private final RoundRunner rounds;

  private VariantsRun(String simulation, Settings settings, VariantPlan plan, RoundRunner rounds) {
    this.simulation = simulation;
    this.settings = settings;
    this.plan = plan;
    this.rounds = rounds;
  }

  /**
   * With -Dvariants, runs the variants and ends the JVM with the run's exit code; without it, returns (a round of
   * variants, -Dvariant, first has its variant named among its parameters).
   *
   * @param simulationClass the simulation's class name, which each round runs
   * @param settings the run's settings
   */
  public static void conductIfAsked(String simulationClass, Settings settings) {
    // A round of a run of variants: its results name the variant, so that History and the gate keep it apart.
    settings.value(VariantPlan.VARIANT).ifPresent(name -> {
      settings.get(VariantPlan.VARIANT, name);
      settings.get(VariantPlan.VARIANT + ".settings", "");
    });
    Optional<VariantPlan> plan = Startup.orExit(() -> VariantPlan.from(settings));
    if (plan.isEmpty()) {
      return;
    }
    String simulation = simulationClass.substring(simulationClass.lastIndexOf('.') + 1);
    VariantsRun run = new VariantsRun(simulation, settings, plan.get(),
        RoundRunner.likeThisJvm(simulationClass, RunFolders.resultsRoot()));
    System.exit(Startup.orExit(run::conduct));
  }

  private int conduct() {
    Console.say("variants: " + plan.describe() + ": " + plan.variants().stream().map(Variant::describe)
        .collect(Collectors.joining("; ")));
    if (!plan.judged()) {
      Console.warn("-Drounds=1: one round of each variant, so no verdict (one round cannot tell a difference from"
          + " the noise); give -Drounds=5 or more");
    }
    List<Regression> rules = settings.value("regression").map(Regression::parse).orElse(List.of());
    Map<Variant, CouchTarget> servers = configuredServers();
    Optional<ConfigGuard> guard = servers.isEmpty() ? Optional.empty()
        : Optional.of(ConfigGuard.take(List.copyOf(servers.values()), plan.configKeys()));
    // On Ctrl-C: the round running stopped first, then the settings put back.
    AtExit.run(rounds::stop);
    guard.ifPresent(kept -> AtExit.run(kept::restore));
    Map<Variant, List<Path>> runs = new LinkedHashMap<>();
    plan.variants().forEach(variant -> runs.put(variant, new ArrayList<>()));
    try {
      int done = 0;
      for (VariantPlan.Slot slot : plan.order()) {
        Console.say("variant " + slot.variant().name() + ", round " + slot.round() + " of " + plan.rounds().count()
            + " (run " + (++done) + " of " + plan.order().size() + ")");
        guard.ifPresent(kept -> kept.apply(slot.variant(), servers.get(slot.variant())));
        runs.get(slot.variant()).add(rounds.run(slot.variant(), roundProperties(slot.variant())));
      }
    } finally {
      guard.ifPresent(ConfigGuard::restore);
    }
    return judge(runs, rules);
  }

  // The CouchDB server each variant loads, where some variant changes a CouchDB setting; none otherwise.
  private Map<Variant, CouchTarget> configuredServers() {
    Map<Variant, CouchTarget> servers = new LinkedHashMap<>();
    if (plan.configKeys().isEmpty()) {
      return servers;
    }
    Map<String, CouchTarget> byUrl = new LinkedHashMap<>();
    for (Variant variant : plan.variants()) {
      Settings its = settings.with(variant.properties());
      Optional<String> url = its.value("couchdb.url");
      if (url.isEmpty()) {
        throw new VariantsException("-Dvariants: variant " + variant.name() + " changes CouchDB settings ("
            + plan.configKeys().stream().map(ConfigKey::toString).collect(Collectors.joining(", ")) + ") of no"
            + " server: give -Dcouchdb.url, an Apache CouchDB 3.x you run, and a server admin's login");
      }
      servers.put(variant, byUrl.computeIfAbsent(url.get(), any -> Targets.couchdb(its)));
    }
    return servers;
  }

  private Map<String, String> roundProperties(Variant variant) {
    Map<String, String> properties = new LinkedHashMap<>(variant.properties());
    properties.put(VariantPlan.VARIANT, variant.name());
    // Its results.json then names what the variant is, as History and the gate tell runs apart.
    properties.put(VariantPlan.VARIANT + ".settings", variant.settings().entrySet().stream()
        .map(setting -> setting.getKey() + "=" + setting.getValue()).collect(Collectors.joining(",")));
    return properties;
  }

  private int judge(Map<Variant, List<Path>> runs, List<Regression> rules) {
    List<String> names = plan.variants().stream().map(Variant::name).toList();
    List<List<Path>> folders = plan.variants().stream().map(runs::get).toList();
    Comparison comparison = Comparison.of(names, folders.stream().map(variantRuns -> variantRuns.stream()
        .map(folder -> JudgedFigures.of(ResultsFile.read(folder.resolve(ResultsFile.NAME)))).toList()).toList());
    List<String> regressed = gate(comparison, rules);
    sayVerdicts(comparison);
    regressed.forEach(Console::say);
    Path folder = RunFolders.resultsRoot().resolve(RunFolders.ownName(simulation, "variants", Instant.now()));
    VariantsReport.writeJson(folder, simulation, plan, folders, comparison);
    Path page = VariantsReport.page(simulation, plan, folders, comparison, regressed).writeTo(folder);
    RunFolders.lastRunIfUnderRoot(folder);
    Console.say("summary: " + page.toAbsolutePath());
    return regressed.isEmpty() ? 0 : Gate.REGRESSED;
  }

  // -Dregression against the first variant: each request's figure the rules name, by the gate's own verdict.
  private List<String> gate(Comparison comparison, List<Regression> rules) {
    List<String> regressed = new ArrayList<>();
    for (Comparison.Judged judged : comparison.figures()) {
      for (Regression rule : rules) {
        if (judged.figure().headline() || !rule.figure().label().equals(judged.figure().figure())) {
          continue;
        }
        List<Spread> spreads = judged.spreads();
        for (int v = 1; v < spreads.size(); v++) {
          if (spreads.get(0) != null && spreads.get(v) != null) {
            Verdict verdict = Verdict.of(judged.figure().subject(), rule, spreads.get(0), spreads.get(v));
            if (verdict.regressed()) {
              regressed.add("variant " + plan.variants().get(v).name() + " against " + plan.variants().get(0).name()
                  + ": " + verdict.describe());
            }
          }
        }
      }
    }
    return regressed;
  }

  // A line per figure a variant differs on; the others counted.
  private void sayVerdicts(Comparison comparison) {
    if (!plan.judged()) {
      return;
    }
    for (int v = 1; v < plan.variants().size(); v++) {
      int same = 0;
      for (Comparison.Judged judged : comparison.figures()) {
        Comparison.Verdict verdict = judged.verdict(v);
        if (verdict == Comparison.Verdict.BETTER || verdict == Comparison.Verdict.WORSE) {
          Console.say(String.format(java.util.Locale.ROOT, "variant %s against %s: %s %s of %s (%.3f of it; %s by"
                  + " noise alone)", plan.variants().get(v).name(), plan.variants().get(0).name(), verdict.words(),
              judged.figure().figure(), judged.figure().subject(), judged.ratio(v),
              Comparison.oneIn(judged.chanceByNoise(v))));
        } else if (verdict == Comparison.Verdict.SAME) {
          same++;
        }
      }
      Console.say("variant " + plan.variants().get(v).name() + " against " + plan.variants().get(0).name() + ": "
          + same + " figure" + (same == 1 ? "" : "s") + " with no difference within the noise");
    }
  }
}
