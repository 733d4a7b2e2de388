package couchbench.results;

import couchbench.report.SummaryPage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * For a simulation's summary test: results as a run writes them, and its page built as {@link RunOutput} builds it,
 * from the figures read back from results.json's text.
 */
public final class SummaryInput {

  private SummaryInput() {}

  /**
   * @param simulation the simulation's name
   * @param injector the share, "*&#47;N" for a merged run, null for one injector
   * @param entries the run's entries
   * @return the results of a run against one CouchDB, without figures yet
   */
  public static Results results(String simulation, String injector, List<Results.Entry> entries) {
    return results(simulation, injector, Map.of(), entries);
  }

  /**
   * @param simulation the simulation's name
   * @param injector the share, "*&#47;N" for a merged run, null for one injector
   * @param parameters the run's parameters
   * @param entries the run's entries
   * @return the results of a run against one CouchDB, without figures yet
   */
  public static Results results(String simulation, String injector, Map<String, String> parameters,
      List<Results.Entry> entries) {
    return new Results(Results.SCHEMA,
        new Results.Run(simulation, parameters, List.of("CouchDB at http://127.0.0.1:5984 without login"),
            new Results.Versions("0.1.0", "3.15.1", "17.0.1"), "2026-12-01T10:00:00Z", "2026-12-01T10:01:00Z",
            injector, 5, RunOutput.HISTOGRAMS, null, null),
        entries, Map.of(), List.of(), List.of(), null);
  }

  /**
   * @param name a request name
   * @param ok its OK count
   * @param failures its failed requests by Gatling's message
   * @return its entry, timed by Gatling
   */
  public static Results.Entry entry(String name, long ok, Map<String, Long> failures) {
    long ko = failures.values().stream().mapToLong(Long::longValue).sum();
    String tag = HistogramTags.request(name, true);
    return new Results.Entry(name, "request", Results.GATLING_CLOCK, false, ok + ko, ok, ko, failures, 1,
        new Results.Latency("us", 1000.0, 2000, 2000, 3000, 4000, 5000, 5000, 5000), tag,
        HistogramTags.request(name, false), "2026-12-01T10:00:00Z", "2026-12-01T10:01:00Z");
  }

  /**
   * The page of results and figures, as a run writes them: the figures into results.json's text, read back.
   *
   * @param summary the simulation's summary
   * @param results the run's results, without figures
   * @param figures its figures
   * @return the simulation's page
   */
  public static <F> SummaryPage page(Summary<F> summary, Results results, F figures) {
    Path source = Path.of(ResultsFile.NAME);
    Results read = ResultsFile.parse(source, ResultsFile.toJson(results.withFigures(ResultsFile.tree(figures))));
    return summary.page(read, ResultsFile.figures(source, read, summary.figuresType()));
  }

  /**
   * @param type the figures' class
   * @param figures figures
   * @return them as results.json gives them back
   */
  public static <F> F readBack(Class<F> type, F figures) {
    Path source = Path.of(ResultsFile.NAME);
    Results written = results("any", null, List.of()).withFigures(ResultsFile.tree(figures));
    return ResultsFile.figures(source, ResultsFile.parse(source, ResultsFile.toJson(written)), type);
  }
}
