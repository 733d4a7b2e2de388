package couchbench.siege;

import couchbench.report.RunFolders;
import couchbench.results.Latencies;
import couchbench.report.Summaries;
import couchbench.report.SummaryPage;
import couchbench.targets.Console;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** After MemSet, MemGet, CouchSet or CouchGet: siege's figures for the run, printed and written beside Gatling's report. */
public final class SiegeSummary {

  private SiegeSummary() {}

  /**
   * Prints a line per request name and writes the summary page; call from after().
   *
   * @param simulation the simulation's class name
   * @param plan the run's parameters
   * @param target what was loaded, e.g. the target's description
   * @param loadStart an instant taken at the end of before()
   */
  public static void write(String simulation, SiegePlan plan, String target, Instant loadStart) {
    write(simulation, plan, target, loadStart, Optional.empty());
  }

  /**
   * Same, with the exact latencies of a memcache run beside siege's figures.
   *
   * @param simulation the simulation's class name
   * @param plan the run's parameters
   * @param target what was loaded
   * @param loadStart an instant taken at the end of before()
   * @param latencies the memcache requests' times, from the protocol's timings
   */
  public static void write(String simulation, SiegePlan plan, String target, Instant loadStart, Latencies latencies) {
    write(simulation, plan, target, loadStart, Optional.of(latencies));
  }

  private static void write(String simulation, SiegePlan plan, String target, Instant loadStart,
      Optional<Latencies> latencies) {
    Optional<Path> runFolder = RunFolders.current(RunFolders.resultsRoot(), simulation, loadStart);
    Map<String, SiegeFigures> figures = new LinkedHashMap<>(runFolder.flatMap(SiegeFigures::ofRun).orElse(Map.of()));
    figures.keySet().removeIf(SiegePlan::isWarmUp);
    figures.forEach((name, f) -> Console.say(f.line(name)));
    SummaryPage page = SummaryPage.titled(simulation + ": siege's figures")
        .line("Target: " + target + ".")
        .line(plan.describeLoad() + (plan.warmup().isZero() ? "." : ", after a warm-up of "
            + plan.warmup().toSeconds() + " s (its requests are named \"" + SiegePlan.WARMUP + "...\" in Gatling's"
            + " report and left out here)."))
        .table("siege's figures", SiegeFigures.table(figures));
    if (latencies.isPresent()) {
      page = latencies.get().addTo(page, name -> !SiegePlan.isWarmUp(name));
    }
    if (runFolder.isPresent() && figures.isEmpty()) {
      page = page.warning("Gatling's simulation.log could not be read: no figures.");
    }
    Summaries.write(simulation, loadStart, page.link("Gatling's report for this run", "index.html"));
  }
}
