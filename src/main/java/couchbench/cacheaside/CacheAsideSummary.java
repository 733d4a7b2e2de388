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
 * reads that reached CouchDB beside CouchDB's own count where it keeps one, the updates, and each hot key's CouchDB
 * reads per refill.
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
    if (figures.protection().equals(CacheAsidePlan.Protection.META.word())) {
      page = page.line(String.format(Locale.ROOT, "Stampedes held off by the meta protocol (-Dprotect=meta): %,d reads"
          + " served the value cached while another user recached it, %,d waited for another user's recache of an"
          + " empty item (the group \"%s\"). memcached counts an mg that vivified a missing key among its get_hits,"
          + " so its get_misses are not the misses here.", figures.servedDuringRecache(), figures.waited(),
          CacheAsideLoad.WAITED));
    }
    page = page.table("reads: hits and misses, by the client and by memcached", reads);
    return figures.hotKeys().isEmpty() ? page : page.line(stampedeLine(figures))
        .table("hot keys: CouchDB reads per refill (its first fill and each expiry; 1 is ideal)",
            hotKeys(figures.hotKeys()));
  }

  private static String stampedeLine(CacheAsideFigures figures) {
    long refills = figures.hotKeys().stream().mapToLong(CacheAsideFigures.HotKey::refills).sum();
    long reads = figures.hotKeys().stream().mapToLong(CacheAsideFigures.HotKey::couchReads).sum();
    long most = figures.hotKeys().stream().mapToLong(CacheAsideFigures.HotKey::mostInOneRefill).max().orElse(0);
    return String.format(Locale.ROOT, "Stampedes (protection: %s): the %d hot keys were refilled %,d times with %,d"
        + " CouchDB reads, %.2f per refill, at most %,d in one.", figures.protection(), figures.hotKeys().size(),
        refills, reads, CacheAsideFigures.ratio(reads, refills), most);
  }

  private static Table hotKeys(List<CacheAsideFigures.HotKey> hotKeys) {
    Table table = Table.of("hot key", "refills", "CouchDB reads", "reads per refill", "most in one refill");
    for (CacheAsideFigures.HotKey key : hotKeys) {
      table = table.row(key.key(), key.refills(), key.couchReads(),
          String.format(Locale.ROOT, "%.2f", key.readsPerRefill()), key.mostInOneRefill());
    }
    return table;
  }

  private static Optional<Results.ServerCount> counted(Results results, String counter) {
    return results.serverCounts().stream().filter(count -> count.counter().equals(counter))
        .filter(Results.ServerCount::counted).findFirst();
  }

  private static double round(double ratio) {
    return Math.round(ratio * 10_000) / 10_000.0;
  }
}
