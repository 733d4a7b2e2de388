package couchbench.cacheaside;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * After CacheAside: the hit ratio the client saw beside memcached's own (get_hits and get_misses over the load), the
 * reads that reached CouchDB beside CouchDB's own count where it keeps one, and the updates.
 */
public final class CacheAsideSummary implements Summary<CacheAsideFigures> {

  /** The server count of every get, as {@link CacheAsideLoad#prepare} names it. */
  static final String SERVER_GETS = "memcache get_hits + get_misses";

  /** The server count of the gets that missed. */
  static final String SERVER_MISSES = "memcache get_misses";

  @Override
  public Class<CacheAsideFigures> figuresType() {
    return CacheAsideFigures.class;
  }

  /** CacheAside runs on one injector ({@link CacheAsidePlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public CacheAsideFigures merge(List<CacheAsideFigures> injectors) {
    return Summary.ofOneInjector("CacheAside", injectors);
  }

  @Override
  public SummaryPage page(Results results, CacheAsideFigures figures) {
    Optional<Results.ServerCount> gets = counted(results, SERVER_GETS);
    Optional<Results.ServerCount> misses = counted(results, SERVER_MISSES);
    Table reads = Table.of("counted by", "reads", "hits", "misses", "hit ratio")
        .row("the client (memcache get found the key or not)", figures.hits() + figures.misses(), figures.hits(),
            figures.misses(), round(figures.hitRatio()));
    if (gets.isPresent() && misses.isPresent()) {
      long all = gets.get().change();
      long missed = misses.get().change();
      reads = reads.row("memcached (get_hits, get_misses over the load)", all, all - missed, missed,
          round(CacheAsideFigures.ratio(all - missed, all)));
    }
    long couchReads = results.requests().stream()
        .filter(entry -> entry.kind().equals("request") && entry.name().equals(CacheAsideLoad.COUCH_GET))
        .mapToLong(Results.Entry::ok).sum();
    SummaryPage page = SummaryPage.titled("CacheAside: memcache in front of CouchDB")
        .line("Target: " + String.join("; ", results.run().targets()) + ".")
        .line("Load: " + figures.load() + ".")
        .line(String.format(Locale.ROOT, "Hit ratio: %.4f (%,d hits, %,d misses); %,d reads reached CouchDB (\"%s\","
                + " one per miss).", figures.hitRatio(), figures.hits(), figures.misses(), couchReads,
            CacheAsideLoad.COUCH_GET))
        .line(String.format(Locale.ROOT, "Updates: %,d written to CouchDB, %,d refused with 409 (another user's"
            + " update of the document came first; the cache left alone), each stored one then %s in the cache.",
            figures.updates(), figures.conflicts(), figures.invalidate().equals("delete") ? "deleted" : "set anew"))
        .line("Each read is timed whole as the group \"" + CacheAsideLoad.HIT + "\" (the get) or \""
            + CacheAsideLoad.MISS + "\" (the get, CouchDB's read and the set), from the get's start.");
    if (gets.isPresent() && misses.isPresent() && (gets.get().change() != figures.hits() + figures.misses()
        || misses.get().change() != figures.misses())) {
      page = page.warning("The client's hits and misses differ from memcached's get_hits and get_misses over the load:"
          + " another client read from the server meanwhile, or it restarted.");
    }
    return page.table("reads: hits and misses, by the client and by memcached", reads);
  }

  private static Optional<Results.ServerCount> counted(Results results, String counter) {
    return results.serverCounts().stream().filter(count -> count.counter().equals(counter))
        .filter(Results.ServerCount::counted).findFirst();
  }

  private static double round(double ratio) {
    return Math.round(ratio * 10_000) / 10_000.0;
  }
}
