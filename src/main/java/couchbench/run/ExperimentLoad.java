package couchbench.run;

import couchbench.results.LoadColumn;
import couchbench.results.Progress;
import couchbench.results.SeriesKind;
import couchbench.results.Summary;
import couchbench.targets.LocalServer;
import java.util.List;
import java.util.Map;

/**
 * An experiment's load as the frame drives it: prepared before the load, followed while it runs, its figures and page
 * after it, then cleaned up. A simulation makes one from its plan and declares, in Gatling's words, the scenarios that
 * run its chains; the rest is the frame's.
 *
 * @param <F> its figures, as results.json keeps them
 */
public interface ExperimentLoad<F> {

  /**
   * Before the load: the databases made, what the server must take checked. Nothing by default.
   *
   * @throws couchbench.startup.OneLineException when the server cannot take the load
   */
  default void prepare() {}

  /** @return the load in one line, for the console once it is prepared, e.g. "2 writers, 30 listeners, ..." */
  String describe();

  /** @return what the console's progress line counts as the load runs; none by default */
  default List<Progress.Source> progress() {
    return List.of();
  }

  /**
   * @return the report's entries that are not the load's requests (a notification timed from a write's
   *     acknowledgement, a verdict on a whole wait), by kind: the run's seconds count them apart and draw them on
   *     charts of their own; none by default
   */
  default Map<SeriesKind, List<String>> countedApart() {
    return Map.of();
  }

  /** @return the CouchDB databases the load uses, still there when it ends (the first one background work's); none */
  default List<String> couchDatabases() {
    return List.of();
  }

  /**
   * Asked after {@link #prepare}, before the load: the server processes on this machine that the load uses besides the
   * CouchDB and memcache servers it loads (Search's Nouveau server), whose CPU and resident memory the run's servers
   * are sampled with each second, in columns named by {@link LocalServer#name()}, e.g. "nouveau cpu (% of a core)".
   *
   * @return the processes; none by default
   */
  default List<LocalServer> otherLocalServers() {
    return List.of();
  }

  /** @return the page its figures make */
  Summary<F> summary();

  /** @return its figures, after the load */
  F figures();

  /**
   * @return its own figures second by second, after the load, for the run's seconds.csv beside its requests' (each
   *     of one kind); none by default
   */
  default List<LoadColumn> secondsColumns() {
    return List.of();
  }

  /** After the page: what the load left to remove. Nothing by default. */
  default void cleanUp() {}
}
