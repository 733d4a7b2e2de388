package couchbench.variants;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.rounds.Spread;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The page of a run of variants, and its variants.json: the verdicts first (each figure's median and range per
 * variant, the ratio to the first, the verdict and its chance by noise alone), then a chart per figure with each
 * variant's rounds drawn, then a link to each round's own run.
 */
final class VariantsReport {

  /** The file beside the page that holds every variant's rounds, figures and verdicts. */
  static final String FILE = "variants.json";

  /** Charts on the page at most: each figure is in the table and in variants.json whatever their number. */
  static final int MAX_CHARTS = 24;

  private static final ObjectMapper JSON = new ObjectMapper();

  private VariantsReport() {}

  /**
   * @param simulation the simulation's name
   * @param plan the variants and rounds
   * @param runs each variant's rounds' run folders, in the plan's order
   * @param comparison the figures and verdicts
   * @param regressions the gate's lines, when -Dregression was given; empty otherwise
   * @return the page
   */
  static SummaryPage page(String simulation, VariantPlan plan, List<List<Path>> runs, Comparison comparison,
      List<String> regressions) {
    List<Variant> variants = plan.variants();
    String first = variants.get(0).name();
    SummaryPage page = SummaryPage.titled(simulation + ": " + variants.size() + " variants compared")
        .line("Variants: " + String.join("; ", variants.stream().map(Variant::describe).toList()) + ".")
        .line(plan.describe() + "; each round a run of its own, in a JVM of its own (links below).");
    if (plan.judged()) {
      int rounds = plan.rounds().count();
      page = page.line("A variant is better or worse than " + first + " on a figure when every one of its rounds is on"
          + " that side of every round of " + first + " (the gate's rule, Mann-Whitney's U = 0). By noise alone, two"
          + " variants that are the same thing get such a verdict on a figure with a chance of "
          + Comparison.oneIn(Comparison.chanceByNoise(rounds, rounds)) + " for " + rounds + " rounds each; over F"
          + " figures, up to F times that.");
    } else {
      page = page.warning("One round of each variant: no verdict, since one round cannot tell a difference from the"
          + " noise; give -Drounds=5 or more (a false verdict on a figure then has a chance of 1 in 126).");
    }
    page = page.warningsFirst(regressions);
    List<Comparison.Judged> ordered = headlinesFirst(comparison);
    page = page.leadingTable("Verdicts against " + first, verdictTable(variants, ordered));
    // A chart each: their numbers have columns of their own (each figure's unit).
    List<Comparison.Judged> drawn = ordered;
    if (drawn.size() > MAX_CHARTS) {
      page = page.line("The charts below draw the first " + MAX_CHARTS + " of " + drawn.size() + " figures; every one"
          + " is in the table above and in " + FILE + ".");
      drawn = drawn.subList(0, MAX_CHARTS);
    }
    for (Comparison.Judged judged : drawn) {
      page = page.chart(judged.figure().key() + ", each variant's rounds", chart(variants, judged));
    }
    for (int v = 0; v < variants.size(); v++) {
      for (int r = 0; r < runs.get(v).size(); r++) {
        page = page.link(variants.get(v).name() + ", round " + (r + 1) + ": " + runs.get(v).get(r).getFileName(),
            "../" + runs.get(v).get(r).getFileName() + "/summary.html");
      }
    }
    return page;
  }

  private static Table verdictTable(List<Variant> variants, List<Comparison.Judged> figures) {
    List<String> columns = new ArrayList<>(List.of("figure", "of", "unit"));
    variants.forEach(variant -> columns.add(variant.name() + ": median (range)"));
    for (Variant variant : variants.subList(1, variants.size())) {
      columns.addAll(List.of(variant.name() + " / " + variants.get(0).name(), variant.name() + ": verdict",
          "chance by noise"));
    }
    Table table = Table.of(columns.toArray(String[]::new));
    for (Comparison.Judged judged : figures) {
      double scale = scale(judged);
      List<Object> cells = new ArrayList<>(List.of(judged.figure().figure(), judged.figure().subject(),
          unit(judged, scale)));
      judged.spreads().forEach(spread -> cells.add(spread == null ? "(none)" : spread(spread, scale)));
      for (int v = 1; v < variants.size(); v++) {
        double ratio = judged.ratio(v);
        cells.add(Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.3f", ratio));
        Comparison.Verdict verdict = judged.verdict(v);
        cells.add(verdict.words());
        cells.add(verdict == Comparison.Verdict.NOT_JUDGED ? "" : Comparison.oneIn(judged.chanceByNoise(v)));
      }
      table = table.row(cells.toArray());
    }
    return table;
  }

  // The simulation's headline figures lead its page; the requests' follow.
  private static List<Comparison.Judged> headlinesFirst(Comparison comparison) {
    List<Comparison.Judged> ordered = new ArrayList<>();
    comparison.figures().stream().filter(judged -> judged.figure().headline()).forEach(ordered::add);
    comparison.figures().stream().filter(judged -> !judged.figure().headline()).forEach(ordered::add);
    return ordered;
  }

  private static LineChart chart(List<Variant> variants, Comparison.Judged judged) {
    double scale = scale(judged);
    LineChart chart = LineChart.titled(judged.figure().figure() + ": " + judged.figure().subject())
        .axes("round", judged.figure().figure() + " (" + unit(judged, scale) + ")");
    for (int v = 0; v < variants.size(); v++) {
      List<Double> values = judged.rounds().get(v);
      if (!values.isEmpty()) {
        chart = chart.series(variants.get(v).name(), IntStream.rangeClosed(1, values.size()).boxed().toList(),
            values.stream().map(value -> value / scale).toList());
      }
    }
    return chart;
  }

  // A latency or time in ms where one of its values passes 1 ms, else in µs (the project's rule); others as they are.
  private static double scale(Comparison.Judged judged) {
    return judged.figure().micros() && judged.rounds().stream().flatMap(List::stream)
        .anyMatch(value -> value >= 1000) ? 1000 : 1;
  }

  private static String unit(Comparison.Judged judged, double scale) {
    return !judged.figure().micros() ? judged.figure().unit() : scale == 1 ? "µs" : "ms";
  }

  private static String spread(Spread spread, double scale) {
    return spread.rounds() == 1 ? number(spread.median() / scale) : number(spread.median() / scale) + " ("
        + number(spread.min() / scale) + "-" + number(spread.max() / scale) + ")";
  }

  private static String number(double value) {
    return String.format(Locale.ROOT, Math.abs(value) >= 100 ? "%,.0f" : "%,.2f", value);
  }

  /**
   * Writes variants.json: each variant's settings and rounds (run folder, figures), and each figure's verdicts.
   *
   * @param folder the run of variants' folder
   * @param simulation the simulation's name
   * @param plan the variants and rounds
   * @param runs each variant's rounds' run folders
   * @param comparison the figures and verdicts
   * @return the file
   */
  static Path writeJson(Path folder, String simulation, VariantPlan plan, List<List<Path>> runs,
      Comparison comparison) {
    ObjectNode root = JSON.createObjectNode().put("simulation", simulation).put("rounds", plan.rounds().count());
    ArrayNode order = root.putArray("order");
    plan.order().forEach(slot -> order.addObject().put("variant", slot.variant().name()).put("round", slot.round()));
    ArrayNode variants = root.putArray("variants");
    for (int v = 0; v < plan.variants().size(); v++) {
      Variant variant = plan.variants().get(v);
      ObjectNode node = variants.addObject().put("name", variant.name());
      variant.settings().forEach(node.putObject("settings")::put);
      ArrayNode folders = node.putArray("runs");
      runs.get(v).forEach(run -> folders.add(run.getFileName().toString()));
    }
    ArrayNode figures = root.putArray("figures");
    for (Comparison.Judged judged : comparison.figures()) {
      ObjectNode node = figures.addObject().put("figure", judged.figure().figure())
          .put("of", judged.figure().subject()).put("unit", judged.figure().unit())
          .put("higherIsWorse", judged.figure().higherIsWorse());
      ArrayNode byVariant = node.putArray("byVariant");
      for (int v = 0; v < plan.variants().size(); v++) {
        ObjectNode values = byVariant.addObject().put("variant", plan.variants().get(v).name());
        judged.rounds().get(v).forEach(values.putArray("rounds")::add);
        if (v > 0) {
          double ratio = judged.ratio(v);
          values.put("ratio", Double.isNaN(ratio) ? null : ratio).put("verdict", judged.verdict(v).name()
              .toLowerCase(Locale.ROOT)).put("chanceByNoise", judged.chanceByNoise(v));
        }
      }
    }
    try {
      Files.createDirectories(folder);
      return Files.writeString(folder.resolve(FILE), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root)
          + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + folder.resolve(FILE), e);
    }
  }
}
