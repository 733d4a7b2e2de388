package couchbench.results;

import couchbench.report.SummaryPage;
import java.util.List;
import java.util.Optional;

/**
 * A simulation's summary page, built only from what results.json holds: the entries, and the simulation's own figures
 * (what its page shows beyond the entries: steps' documents, connections' times, uploads' times, servers' figures),
 * kept in results.json under {@code figures}. A single run's page and the page {@link Merge} writes for several
 * injectors therefore come from the same code and the same kind of input, and a run's page is built from its figures
 * as read back from the file, so every run checks that they survive it.
 *
 * @param <F> the figures: a record Jackson writes and reads (no {@link Optional} fields: null for absent)
 */
public interface Summary<F> {

  /** @return the class of the figures, to read them back from results.json */
  Class<F> figuresType();

  /**
   * The figures of the whole run, from those of its injectors.
   *
   * @param injectors each injector's figures, injector 0 first
   * @return the figures of the run, as one injector running all of it would have written them where that can be
   *     known; what cannot (e.g. a figure of one machine's process) as the page should say it
   */
  F merge(List<F> injectors);

  /**
   * The simulation's page.
   *
   * @param results the run's results (for a merged run, the added-up ones); without entries when Gatling's log could
   *     not be read
   * @param figures the simulation's figures (for a merged run, from {@link #merge})
   * @return the page, to which the latency table and chart of every summary are added
   */
  SummaryPage page(Results results, F figures);

  /**
   * What in the figures fails the run though no request failed: a check made after the load, e.g. a client that
   * differs from the server after its last pull. The run then ends with exit code 2 after its reports, as one with a
   * failed request does.
   *
   * @param figures the simulation's figures
   * @return why the run failed, in one line; empty when nothing in the figures fails it
   */
  default Optional<String> failure(F figures) {
    return Optional.empty();
  }

  /**
   * The merge of a simulation that runs on one injector only (its plan refuses -Dinjector).
   *
   * @param simulation its name, for the message
   * @param injectors the figures given
   * @param <F> the figures
   * @return the one injector's figures
   * @throws IllegalArgumentException when there are several
   */
  static <F> F ofOneInjector(String simulation, List<F> injectors) {
    if (injectors.size() != 1) {
      throw new IllegalArgumentException(simulation + " runs on one injector; " + injectors.size() + " were given");
    }
    return injectors.get(0);
  }

  /** Finds the summary of a run's simulation, made from the parameters its results list. */
  @FunctionalInterface
  interface Finder {

    /**
     * @param run a run, as its results.json describes it
     * @return its simulation's summary; empty for a simulation that has none
     */
    Optional<Summary<?>> of(Results.Run run);
  }
}
