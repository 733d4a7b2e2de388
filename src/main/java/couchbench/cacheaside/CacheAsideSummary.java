package couchbench.cacheaside;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.Summary;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * After CacheAside: the hit ratio the client saw beside memcached's own (get_hits and get_misses over the load), the
 * reads that reached CouchDB beside CouchDB's own count where it keeps one, the updates, the stale reads and their
 * cause, each hot key's CouchDB reads per refill, the warm-up after each cold cache, and the reads second by second on
 * the run's time axis.
 */
public final class CacheAsideSummary implements Summary<CacheAsideFigures> {

  /** The server count of every get, as {@link CacheAsideLoad#prepare} names it. */
  static final String SERVER_GETS = "memcache get_hits + get_misses";

  /** The server count of the gets that missed. */
  static final String SERVER_MISSES = "memcache get_misses";

  /** The seconds after memcached answers again within which the load's connections are back. */
  private static final int RECONNECT_SECONDS = 2;

  private static final double MB = 1024.0 * 1024.0;

  @Override
  public Class<CacheAsideFigures> figuresType() {
    return CacheAsideFigures.class;
  }

  /** CacheAside runs on one injector ({@link CacheAsidePlan#from} refuses -Dinjector): its figures are the run's. */
  @Override
  public CacheAsideFigures merge(List<CacheAsideFigures> injectors) {
    return Summary.ofOneInjector("CacheAside", injectors);
  }

  /** A read's get that failed beyond a cold cache's restart: the cache failed, which is no part of the experiment. */
  @Override
  public Optional<String> failure(CacheAsideFigures figures) {
    long outside = figures.seconds().stream().filter(second -> figures.coldCaches().stream()
        .noneMatch(cold -> second.second() >= (long) Math.floor(cold.emptiedAt())
            && second.second() <= (long) Math.floor(cold.answeredAt()) + RECONNECT_SECONDS))
        .mapToLong(CacheAsideFigures.ReadSecond::cacheDown).sum();
    return outside == 0 ? Optional.empty() : Optional.of(String.format(Locale.ROOT, "%,d reads' memcache gets failed"
        + " outside a restart of the cache (-Dbackground=restart-cache): see \"%s\"'s errors in the report", outside,
        CacheAsideLoad.GET));
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
            figures.updates(), figures.conflicts(), invalidated(figures)))
        .line(staleLine(figures))
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
    if (figures.missCauses() != null) {
      page = page.line(missCausesLine(figures));
    }
    if (figures.cacheMemory() != null) {
      page = page.line(memoryLine(figures.cacheMemory()));
      if (figures.cacheMemory().evictions() > 0) {
        page = page.warning(String.format(Locale.ROOT, "memcache evicted %,d items over the load to make room: the hit"
            + " ratio is the cache's size's as much as the key draw's and the TTL's.",
            figures.cacheMemory().evictions()));
      }
    }
    page = page.table("reads: hits and misses, by the client and by memcached", reads);
    if (!figures.hotKeys().isEmpty()) {
      page = page.line(stampedeLine(figures))
          .table("hot keys: CouchDB reads per refill (its first fill and each expiry; 1 is ideal)",
              hotKeys(figures.hotKeys()));
    }
    for (CacheAsideFigures.ColdCache cold : figures.coldCaches()) {
      page = page.line(coldCacheLine(cold));
    }
    return figures.seconds().isEmpty() ? page : page
        .chart("the hit ratio second by second", secondsChart(figures, "hit ratio", "hits over reads",
            "hit ratio", CacheAsideFigures.ReadSecond::hitRatio))
        .chart("CouchDB's reads a second", secondsChart(figures, "CouchDB's reads a second", "reads (/s)",
            "\"" + CacheAsideLoad.COUCH_GET + "\" OK", second -> second.couchReads()))
        .chart("stale reads a second", staleChart(figures))
        .chart("the latency of hits and of misses second by second", secondsChart(figures,
            "the latency of hits and of misses, whole", "ms", "hit p50", CacheAsideFigures.ReadSecond::hitP50)
            .series("hit p99", xs(figures), ys(figures, CacheAsideFigures.ReadSecond::hitP99))
            .series("miss p50", xs(figures), ys(figures, CacheAsideFigures.ReadSecond::missP50))
            .series("miss p99", xs(figures), ys(figures, CacheAsideFigures.ReadSecond::missP99)));
  }

  // The stale reads by the race; with -Dprotect=meta, beside them those served stale on purpose (flagged X).
  private static LineChart staleChart(CacheAsideFigures figures) {
    LineChart chart = secondsChart(figures, "stale reads a second", "reads (/s)", "stale by the race",
        second -> second.staleByRace());
    return figures.protection().equals(CacheAsidePlan.Protection.META.word())
        ? chart.series("stale on purpose (flagged X)", xs(figures), ys(figures, second -> second.staleOnPurpose()))
        : chart;
  }

  private static String invalidated(CacheAsideFigures figures) {
    if (!figures.invalidate().equals("delete")) {
      return "set anew";
    }
    return figures.protection().equals(CacheAsidePlan.Protection.META.word())
        ? "marked stale (md I: its readers served the old value, flagged, while one recaches it)" : "deleted";
  }

  private static String missCausesLine(CacheAsideFigures figures) {
    CacheAsideFigures.Misses causes = figures.missCauses();
    String recached = figures.protection().equals(CacheAsidePlan.Protection.META.word()) ? String.format(Locale.ROOT,
        ", %,d recached before expiring (an mg's win with its TTL left below R)", causes.recached()) : "";
    String server = causes.getExpired() == null ? "" : String.format(Locale.ROOT, " memcached counted %,d gets that"
        + " found their item expired (get_expired: the first read after an expiry) and %,d flushed (get_flushed).",
        causes.getExpired(), causes.getFlushed() == null ? 0 : causes.getFlushed());
    return String.format(Locale.ROOT, "Misses by cause, as the client knew its keys: %,d cold (the key's first read),"
        + " %,d invalidated by an update, %,d expired (the TTL), %,d evicted (memcached made room, or the cache was"
        + " emptied)%s.", causes.cold(), causes.invalidated(), causes.expired(), causes.evicted(), recached) + server;
  }

  private static String memoryLine(CacheAsideFigures.CacheMemory memory) {
    return String.format(Locale.ROOT, "memcache's memory: %.1f MB (limit_maxbytes); every document cached at once"
        + " takes about %.1f MB (%s); %,d items evicted over the load.", memory.limitBytes() / MB,
        memory.documentsBytes() / MB, memory.outgrown() ? "more: the cache holds a part of them" : "it fits",
        memory.evictions());
  }

  private static String staleLine(CacheAsideFigures figures) {
    String stale = String.format(Locale.ROOT, "Stale reads: %,d, %.4f of the reads (a read that returned a version of"
        + " its document older than one CouchDB had acknowledged to a writer before the read's get began).",
        figures.staleReads(), CacheAsideFigures.ratio(figures.staleReads(), figures.hits() + figures.misses()));
    boolean deleting = figures.invalidate().equals("delete");
    if (!figures.protection().equals(CacheAsidePlan.Protection.META.word())) {
      return stale + String.format(Locale.ROOT, " Their cause: a reader's miss whose CouchDB read saw the old version"
          + " and whose set came after a writer's %s, or a read between a writer's acknowledgement and its %s landing"
          + " in the cache.", deleting ? "delete of the key" : "set of the new version", deleting ? "delete" : "set");
    }
    // A reader's late set is an ms with its mg's cas and I: stored marked stale, not as fresh.
    String marked = deleting ? "an update marked its key stale (md I), or a reader's set of the version it read"
        + " landed after that" : "a reader's set of the version it read landed after an update's set of the new one";
    return stale + String.format(Locale.ROOT, " %,d of them served stale on purpose: a value memcached flagged stale"
        + " (X), served while another user recached it (%s, stored marked stale by its ms's I). %,d reads in all were"
        + " served a value flagged stale, %,d of them the newest version anyway. The other %,d were stale by the"
        + " race: a read between a writer's acknowledgement and its %s landing in the cache.",
        figures.staleOnPurpose(), marked, figures.servedFlaggedStale(),
        figures.servedFlaggedStale() - figures.staleOnPurpose(), figures.staleByRace(), deleting ? "md I" : "set");
  }

  // On the run's seconds charts' axis, each cold cache shaded as -Dbackground's tasks are there.
  private static LineChart secondsChart(CacheAsideFigures figures, String title, String y, String series,
      ToDoubleFunction<CacheAsideFigures.ReadSecond> figure) {
    LineChart chart = LineChart.titled(title).axes("seconds into the load", y)
        .series(series, xs(figures), ys(figures, figure));
    for (CacheAsideFigures.ColdCache cold : figures.coldCaches()) {
      chart = chart.band(cold.task(), cold.emptiedAt(), cold.answeredAt());
    }
    return chart;
  }

  private static List<Long> xs(CacheAsideFigures figures) {
    return figures.seconds().stream().map(CacheAsideFigures.ReadSecond::second).toList();
  }

  private static List<Double> ys(CacheAsideFigures figures, ToDoubleFunction<CacheAsideFigures.ReadSecond> figure) {
    return figures.seconds().stream().map(second -> figure.applyAsDouble(second)).toList();
  }

  private static String coldCacheLine(CacheAsideFigures.ColdCache cold) {
    String start = String.format(Locale.ROOT, "Cold cache (%s): emptied %.1f s into the load, the server answering"
        + " again at %.1f s; %,d reads' gets failed meanwhile (counted apart, neither hits nor misses: \"%s\"'s"
        + " failures in the report). ", cold.task(), cold.emptiedAt(), cold.answeredAt(), cold.cacheDown(),
        CacheAsideLoad.GET);
    if (cold.hitRatioBefore() < 0) {
      return start + "No read came before it, so there is no hit ratio to come back to.";
    }
    String before = String.format(Locale.ROOT, "The hit ratio was %.4f in the %d s before (%.1f CouchDB reads a"
        + " second); ", cold.hitRatioBefore(), WarmUp.BEFORE, cold.couchReadsBefore());
    return start + before + (cold.warmUpSeconds() == null
        ? String.format(Locale.ROOT, "it was not back within %.0f%% of it by the run's end (%.1f CouchDB reads a second"
            + " since).", WarmUp.WITHIN * 100, cold.couchReadsWarmingUp())
        : String.format(Locale.ROOT, "warm-up: %d s, until the hit ratio was back within %.0f%% of it (the first %d"
            + " s whose hit ratio together was at least %.4f), with %.1f CouchDB reads a second meanwhile.",
            cold.warmUpSeconds(), WarmUp.WITHIN * 100, WarmUp.WINDOW, cold.hitRatioBefore() * (1 - WarmUp.WITHIN),
            cold.couchReadsWarmingUp()));
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
    Table table = Table.of("hot key", "refills", "CouchDB reads", "reads per refill", "most in one refill",
        "refills begun before an expiry (R)");
    for (CacheAsideFigures.HotKey key : hotKeys) {
      table = table.row(key.key(), key.refills(), key.couchReads(),
          String.format(Locale.ROOT, "%.2f", key.readsPerRefill()), key.mostInOneRefill(), key.recaches());
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
