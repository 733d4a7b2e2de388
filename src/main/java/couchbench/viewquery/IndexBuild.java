package couchbench.viewquery;

import couchbench.couchdb.DesignDocument;
import java.util.Locale;
import java.util.Optional;

/**
 * The first query of the view, sent before the load: it makes CouchDB build the view's index, so it
 * is timed and reported on its own instead of counting as one of the measured requests.
 *
 * @param millis the query's time, from sending to the whole reply
 * @param totalRows the view's {@code total_rows}: what every measured reply must say
 * @param bytes the reply body's length
 * @param designOutcome what setup did to the design document, null without setup; when it was already
 *     there unchanged, an earlier run may have built the index and this query only read it
 * @param builtByInjector0 whether another injector of the run set the view up and built its index,
 *     so that this query only read it
 */
public record IndexBuild(double millis, long totalRows, int bytes, DesignDocument.Outcome designOutcome,
    boolean builtByInjector0) {

  /** @return what setup did to the design document, empty without setup */
  public Optional<DesignDocument.Outcome> design() {
    return Optional.ofNullable(designOutcome);
  }

  /** @return one line for the console and the summary */
  public String describe() {
    String note = builtByInjector0
        ? ", set up by injector 0, which built the index: this query only read it"
        : design().filter(outcome -> outcome == DesignDocument.Outcome.UNCHANGED)
            .map(outcome -> ", design document unchanged: its index may date from an earlier run")
            .orElse(designOutcome != null ? ", design document " + designOutcome.name().toLowerCase() : "");
    return String.format(Locale.ROOT,
        "view index build: first query %.1f ms, total_rows %d, %d bytes (before the load, not in its figures%s)",
        millis, totalRows, bytes, note);
  }
}
