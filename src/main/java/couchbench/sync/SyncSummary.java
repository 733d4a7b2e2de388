package couchbench.sync;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Histograms;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.scaleout.InjectorShare;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToLongFunction;
import org.HdrHistogram.Histogram;

/**
 * After Sync: what the clients' syncs moved, how long a sync took (Gatling's "sync" group), how long until one
 * client's write reached the others, the conflicts, and every client compared with the server.
 */
public final class SyncSummary implements Summary<SyncFigures> {

  private static final double[] PERCENTILES = {50, 95, 99, 99.9};

  @Override
  public Class<SyncFigures> figuresType() {
    return SyncFigures.class;
  }

  /** Each injector synced its own clients in its own databases: their counts add up, their histograms too. */
  @Override
  public SyncFigures merge(List<SyncFigures> injectors) {
    Histogram reach = Histograms.decode(injectors.get(0).reachMicros());
    injectors.stream().skip(1).forEach(injector -> reach.add(Histograms.decode(injector.reachMicros())));
    return new SyncFigures(String.join("; ", InjectorShare.prefixed(injectors.stream()
            .map(injector -> List.of(injector.load())).toList())),
        sum(injectors, SyncFigures::syncs), sum(injectors, SyncFigures::failedSyncs),
        sum(injectors, SyncFigures::revisionsPushed), sum(injectors, SyncFigures::revisionsPulled),
        String.join("; ", injectors.stream().map(SyncFigures::pullsThrough).distinct().toList()),
        Histograms.encode(reach), sum(injectors, SyncFigures::cuts), sum(injectors, SyncFigures::readAgain),
        sum(injectors, SyncFigures::serverEdits), sum(injectors, SyncFigures::serverEditsRefused),
        sum(injectors, SyncFigures::serverDocs), sum(injectors, SyncFigures::serverConflicts),
        sum(injectors, SyncFigures::clientConflicts), (int) sum(injectors, SyncFigures::clientsCompared),
        (int) sum(injectors, SyncFigures::clientsEqual), injectors.stream().map(SyncFigures::firstDifference)
            .filter(difference -> !difference.isEmpty()).findFirst().orElse(""));
  }

  private static long sum(List<SyncFigures> injectors, ToLongFunction<SyncFigures> figure) {
    return injectors.stream().mapToLong(figure).sum();
  }

  @Override
  public SummaryPage page(Results results, SyncFigures figures) {
    long requests = results.requests().stream().filter(entry -> entry.kind().equals("request"))
        .mapToLong(Results.Entry::count).sum();
    SummaryPage page = SummaryPage.titled("Sync: clients syncing as PouchDB does")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + ".")
        .line(String.format(Locale.ROOT, "Syncs: %,d (%,d with a failed request), %.1f requests a sync; %,d revisions"
                + " pushed, %,d pulled. A sync's time is Gatling's group \"sync\": its edits, its push and its pull."
                + " Edits on the server: %,d made, %,d refused (409) for a revision a client pushed between their read"
                + " and their write.", figures.syncs(), figures.failedSyncs(),
            figures.syncs() == 0 ? 0.0 : (double) requests / figures.syncs(), figures.revisionsPushed(),
            figures.revisionsPulled(), figures.serverEdits(), figures.serverEditsRefused()));
    page = page.line("Pulls fetched the revisions they lacked through " + figures.pullsThrough() + ".");
    if (!figures.pullsThrough().equals("_bulk_get")) {
      page = page.warning("The pulls did not use _bulk_get: " + figures.pullsThrough() + ". A pull takes a request per"
          + " document it lacks beyond its first revisions, so its time and requests a sync are not those of a"
          + " server with _bulk_get.");
    }
    if (figures.cuts() > 0) {
      page = page.line(String.format(Locale.ROOT, "Syncs cut mid-pull (-DdropEvery): %,d, each client's next sync"
          + " resuming from its checkpoints on the server; %,d revisions read again in _changes were found held, and"
          + " not pulled twice.", figures.cuts(), figures.readAgain()));
    }
    Histogram reach = Histograms.decode(figures.reachMicros());
    Object[] row = new Object[7];
    row[0] = "a client's revision, pushed to pulled by another";
    row[1] = reach.getTotalCount();
    for (int i = 0; i < PERCENTILES.length; i++) {
      row[2 + i] = seconds(reach.getTotalCount() == 0 ? 0 : reach.getValueAtPercentile(PERCENTILES[i]));
    }
    row[6] = seconds(reach.getMaxValue());
    page = page.table("how long until a write of one client reaches the others", Table.of("what", "count", "p50 (s)",
        "p95 (s)", "p99 (s)", "p99.9 (s)", "max (s)").row(row));
    Optional<String> failure = failure(figures);
    if (failure.isPresent()) {
      page = page.warning(failure.get() + ".");
    }
    return page.table("every client against the server after its last pull: each document's leaves and winner",
        Table.of("clients compared", "equal to the server", "documents on the server", "in conflict on the server",
            "in conflict in the clients' stores (over all)", "first difference")
            .row(figures.clientsCompared(), figures.clientsEqual(), figures.serverDocs(), figures.serverConflicts(),
                figures.clientConflicts(), figures.firstDifference()));
  }

  /** @return the clients that differ from the server after their last pull, and the first difference */
  @Override
  public Optional<String> failure(SyncFigures figures) {
    if (figures.clientsEqual() == figures.clientsCompared()) {
      return Optional.empty();
    }
    return Optional.of(String.format(Locale.ROOT, "%d of %d clients differ from the server after their last pull,"
        + " e.g. %s", figures.clientsCompared() - figures.clientsEqual(), figures.clientsCompared(),
        figures.firstDifference()));
  }

  private static double seconds(long micros) {
    return Math.round(micros / 1e6 * 1000) / 1000.0;
  }
}
