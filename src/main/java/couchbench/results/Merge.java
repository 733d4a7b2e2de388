package couchbench.results;

import couchbench.report.SummaryPage;
import couchbench.scaleout.InjectorShare;
import couchbench.startup.Console;
import couchbench.startup.SettingsException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The run folders of one run's injectors ({@code -Dinjector=I/N}) into one merged folder, from their results.json
 * and histograms.hlog only: every injector's intervals in one histograms.hlog, so the merged histograms are their
 * exact sums; per request name the counts and failures summed, the percentiles from the summed histograms, the rate
 * over the union of the injectors' windows (first start to last end); the largest start skew; each server counter
 * once, from the earliest reading before the load to the latest after it, against the sum of what all injectors were
 * acknowledged; the key files joined into one ({@link MergedKeyFiles}); and summary.html for the whole run, linking
 * each injector's Gatling report, which Gatling cannot merge. The simulation's own figures are merged by its
 * {@link Summary}, and its page for the whole run comes from the same code as a single run's. Folders of different
 * simulations, parameters or runs, or an injector given twice, are refused with one line, and nothing is written.
 *
 * <p>An injector that left no results (killed, evicted, lost with its machine: its folder missing, or without
 * results.json, which a run writes last) does not lose the others' results: they are merged, and the merged results
 * and page say "2 of 3 injectors; injector 2/3: why" ({@link Results.LostInjector}). A lost injector's key file is
 * looked for where the others' are ({@link LostInjectors}: a part file of the keys it had flushed: partial, its whole
 * keys joined into the merged key file; else lost), and the server counts become a lower bound: the change is at least
 * what the ended injectors were acknowledged and the lost one's flushed keys.
 *
 * <p>{@code mvn -q exec:java@merge -Druns=A,B[,...] [-Dout=folder] [-Dlost="2=why;3=why"]}, or {@code java
 * couchbench.merge.MergeCommand A,B [folder] [lost]}.
 */
public final class Merge {

  /** Parameters that differ between the injectors of one run by design. */
  static final Set<String> INJECTOR_PARAMETERS = Set.of(InjectorShare.PARAMETER, InjectorShare.HTTPERF_ALIAS);

  private Merge() {}

  /**
   * Merges the folders given.
   *
   * @param args "A,B,..." (the injectors' run folders; one without results.json is left out with a line), then
   *     optionally the merged folder, by default {@code <results root>/<simulation>-merged-<timestamp>}, beside the
   *     runs, named as Gatling names them (a merged folder in the results root becomes its lastRun.txt, as a run's
   *     folder does), then optionally why injectors left no results, "I=why;J=why"
   * @param summaries finds the simulation's summary, which merges its own figures and makes its page
   * @return the merged summary.html; its results.json lists the injectors lost
   * @throws ResultsException with one line when an argument or a folder is wrong, the folders are not the
   *     injectors of one run, or none left results; nothing is written then
   */
  public static Path run(String[] args, Summary.Finder summaries) {
    return run(args, summaries, FromInjectors.NOTHING);
  }

  /**
   * What a merged page shows from its injectors' own folders, after the merged figures: what only each injector has,
   * such as its seconds.
   */
  public interface FromInjectors {

    /** Shows nothing more. */
    FromInjectors NOTHING = (page, merged, injectors) -> page;

    /**
     * @param page the merged page so far
     * @param merged the merged results
     * @param injectors each injector's run folder, by its share (e.g. "injector 0/2"), in index order
     * @return the page with what it shows
     */
    SummaryPage addTo(SummaryPage page, Results merged, Map<String, Path> injectors);
  }

  /**
   * As {@link #run(String[], Summary.Finder)}, with more from the injectors' own folders on the page.
   *
   * @param args as there
   * @param summaries as there
   * @param fromInjectors what the page shows from each injector's folder
   * @return the merged summary.html
   */
  public static Path run(String[] args, Summary.Finder summaries, FromInjectors fromInjectors) {
    // exec:java passes an empty -Druns or -Dout as null.
    String runs = args.length == 0 || args[0] == null ? "" : args[0];
    List<Path> folders = new ArrayList<>();
    for (String folder : runs.split(",")) {
      if (!folder.isBlank()) {
        folders.add(Path.of(folder.trim()));
      }
    }
    if (folders.isEmpty()) {
      throw new ResultsException("give the injectors' run folders: -Druns=reports/memset-A,reports/memset-B");
    }
    List<Path> leftOut = new ArrayList<>();
    List<InjectorRun> injectors = read(folders, leftOut);
    Results first = injectors.get(0).results();
    Path out = args.length > 1 && args[1] != null && !args[1].isBlank() ? Path.of(args[1].trim())
        : RunFolders.resultsRoot().resolve(RunFolders.ownName(first.run().simulation(), "merged", Instant.now()));
    List<LostInjectors.Lost> lost = LostInjectors.of(injectors,
        LostInjectors.reasons(args.length > 2 ? args[2] : null), leftOut);
    Path summary = write(injectors, lost, leftOut, summaries, fromInjectors, out);
    RunFolders.lastRunIfUnderRoot(out);
    return summary;
  }

  /**
   * Reads every folder and checks that they are the injectors of one run, in index order. A folder without results.json
   * (its injector was killed before its run ended) is left out, with a line.
   */
  static List<InjectorRun> read(List<Path> folders, List<Path> leftOut) {
    List<InjectorRun> injectors = new ArrayList<>();
    for (Path folder : folders) {
      if (Files.isDirectory(folder) && !Files.exists(folder.resolve(ResultsFile.NAME))) {
        Console.say("merge: " + folder + " holds no " + ResultsFile.NAME + " (its injector did not end its run): left"
            + " out");
        leftOut.add(folder);
        continue;
      }
      Results results = ResultsFile.read(folder);
      if (results.schema() < Results.SCHEMA) {
        throw new ResultsException(folder + ": results.json of schema " + results.schema()
            + ", which has no " + (results.schema() < 2 ? "request windows" : "figures of the simulation's own")
            + ": merge needs runs of this couchbench (schema " + Results.SCHEMA + ")");
      }
      Path dir = Files.isDirectory(folder) ? folder : folder.toAbsolutePath().getParent();
      String share = results.run().injector();
      if (results.run().merged()) {
        throw new ResultsException(folder + ": merged results already; give the injectors' own run folders");
      }
      injectors.add(new InjectorRun(dir, share(folder, share), results, dir.resolve(results.run().histograms())));
    }
    if (injectors.isEmpty()) {
      throw new ResultsException("no injector left results: " + leftOut.stream().map(Path::toString)
          .collect(Collectors.joining(", ")) + " hold" + (leftOut.size() == 1 ? "s" : "") + " no " + ResultsFile.NAME
          + ", nothing to merge");
    }
    check(injectors);
    injectors.sort(Comparator.comparingInt(injector -> injector.share().index()));
    return injectors;
  }

  /** The share a run's results name; a run of one injector names none. */
  private static InjectorShare share(Path folder, String share) {
    try {
      return share == null ? InjectorShare.ALONE : InjectorShare.parse("injector", share);
    } catch (SettingsException e) {
      throw new ResultsException(folder + ": run.injector is \"" + share + "\", not I/N: not a couchbench injector's"
          + " results");
    }
  }

  /** One line for the first way the folders are not the injectors of one run; an injector may be missing. */
  static void check(List<InjectorRun> injectors) {
    InjectorRun first = injectors.get(0);
    Results.Run a = first.results().run();
    for (InjectorRun other : injectors.subList(1, injectors.size())) {
      Results.Run b = other.results().run();
      String pair = first.folder() + " and " + other.folder();
      if (!a.simulation().equals(b.simulation())) {
        throw new ResultsException(pair + " are runs of different simulations (" + a.simulation() + ", "
            + b.simulation() + "): give the folders of one run's injectors");
      }
      if (!Objects.equals(a.startAt(), b.startAt())) {
        throw new ResultsException(pair + " are different runs (-DstartAt=" + a.startAt() + " and " + b.startAt()
            + "): give the folders of one run's injectors, which share -DstartAt");
      }
      for (String name : parameterNames(a, b)) {
        String va = a.parameters().getOrDefault(name, "(not read)");
        String vb = b.parameters().getOrDefault(name, "(not read)");
        if (!va.equals(vb)) {
          throw new ResultsException(pair + " ran with different parameters (-D" + name + "=" + va + " and " + vb
              + "): the injectors of one run share every parameter but -Dinjector");
        }
      }
      if (first.share().count() != other.share().count()) {
        throw new ResultsException(pair + " are injectors " + first.share() + " and " + other.share()
            + " of runs of different sizes: give the folders of one run's injectors");
      }
    }
    Map<Integer, Path> byIndex = new TreeMap<>();
    for (InjectorRun injector : injectors) {
      Path twice = byIndex.put(injector.share().index(), injector.folder());
      if (twice != null) {
        throw new ResultsException(twice + " and " + injector.folder() + " are both injector " + injector.share()
            + ": give each injector's folder once");
      }
    }
  }

  private static Set<String> parameterNames(Results.Run a, Results.Run b) {
    Set<String> names = new TreeSet<>(a.parameters().keySet());
    names.addAll(b.parameters().keySet());
    names.removeAll(INJECTOR_PARAMETERS);
    return names;
  }

  /** Writes the merged folder: histograms.hlog, the key files, results.json, summary.html. */
  private static Path write(List<InjectorRun> injectors, List<LostInjectors.Lost> lost, List<Path> leftOut,
      Summary.Finder summaries, FromInjectors fromInjectors, Path out) {
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new ResultsException(out + ": cannot be created (" + e.getMessage() + ")");
    }
    long base = injectors.stream().mapToLong(injector -> Instant.parse(injector.results().run().start()).toEpochMilli())
        .min().orElseThrow();
    Path histograms = out.resolve(RunOutput.HISTOGRAMS);
    try (HistogramLog log = HistogramLog.create(histograms, base)) {
      injectors.forEach(injector -> log.copyIntervals(injector.histograms()));
    }
    Map<String, Histogram> totals = HistogramLog.totals(histograms);
    List<String> problems = new ArrayList<>();
    List<Results.KeyFile> keyFiles = MergedKeyFiles.join(injectors, LostInjectors.keyParts(lost), out, problems);
    Results added = merged(injectors, totals, keyFiles, lost, out);
    // Found from the merged run, whose parameters are the whole run's (no -Dinjector): its users are all injectors'.
    OwnPage own = summaries.of(added.run()).map(found -> ownPage(found, injectors, added, out))
        .orElseGet(() -> new OwnPage(added, SummaryPage.titled(added.run().simulation()).line("couchbench has no"
            + " page of " + added.run().simulation() + "'s own figures: the counts and latencies below are all there"
            + " is.")));
    ResultsFile.write(out, own.results());
    Map<String, Path> folders = new LinkedHashMap<>();
    injectors.forEach(injector -> folders.put("injector " + injector.share(), injector.folder()));
    return fromInjectors.addTo(page(own.page(), injectors, own.results(), totals, out, problems, leftOut),
        own.results(), folders).writeTo(out);
  }

  /** The merged results with the simulation's figures, and its page of them. */
  private record OwnPage(Results results, SummaryPage page) {}

  /** The simulation's figures of every injector, merged, and its page of the whole run, as for a single run. */
  private static <F> OwnPage ownPage(Summary<F> summary, List<InjectorRun> injectors, Results added, Path out) {
    List<F> each = injectors.stream().map(injector -> ResultsFile.figures(injector.folder(), injector.results(),
        summary.figuresType())).toList();
    Results merged = added.withFigures(ResultsFile.tree(summary.merge(each)));
    return new OwnPage(merged, summary.page(merged, ResultsFile.figures(out, merged, summary.figuresType())));
  }

  /** The merged results. */
  private static Results merged(List<InjectorRun> injectors, Map<String, Histogram> totals,
      List<Results.KeyFile> keyFiles, List<LostInjectors.Lost> lost, Path out) {
    List<Results> all = injectors.stream().map(InjectorRun::results).toList();
    Results.Run first = all.get(0).run();
    Map<String, String> parameters = new TreeMap<>(first.parameters());
    parameters.keySet().removeAll(INJECTOR_PARAMETERS);
    Results.Run run = new Results.Run(first.simulation(), parameters, first.targets(), first.versions(),
        earliest(all, r -> r.run().start()), latest(all, r -> r.run().end()), Results.Run.MERGED + injectors.size(),
        first.intervalSeconds(), RunOutput.HISTOGRAMS, first.startAt(),
        all.stream().map(r -> r.run().startSkewMillis()).filter(Objects::nonNull).max(Long::compare).orElse(null));
    Map<String, List<Results.Entry>> byName = new LinkedHashMap<>();
    all.forEach(r -> r.requests().forEach(e -> byName.computeIfAbsent(e.kind() + ":" + e.name(),
        k -> new ArrayList<>()).add(e)));
    List<Results.Entry> entries = byName.values().stream().map(same -> entry(same, totals)).toList();
    Map<String, Long> errors = new TreeMap<>();
    all.forEach(r -> r.errors().forEach((message, n) -> errors.merge(message, n, Long::sum)));
    List<Results.LostInjector> lostInjectors = lost.stream().map(injector -> new Results.LostInjector(
        injector.share().toString(), injector.why(), injector.keyFiles().stream().map(keys -> keys.found() == null
            ? new Results.LostKeyFile(keys.keyFile(), null, 0, Results.LostKeyFile.LOST)
            : new Results.LostKeyFile(keys.keyFile(), relative(out, keys.found()), keys.keys(),
                Results.LostKeyFile.PARTIAL)).toList())).toList();
    Map<String, Results.ServerConnections> connections = new TreeMap<>();
    all.forEach(r -> r.memcacheConnections().forEach(server ->
        connections.merge(server.server(), server, Results.ServerConnections::plus)));
    return new Results(Results.SCHEMA, run, entries, errors, keyFiles, serverCounts(all, lostInjectors), null,
        lostInjectors, List.copyOf(connections.values()));
  }

  /** One request name's entries of every injector, added up. */
  private static Results.Entry entry(List<Results.Entry> same, Map<String, Histogram> totals) {
    Results.Entry first = same.get(0);
    Map<String, Long> failures = new TreeMap<>();
    same.forEach(e -> e.failures().forEach((message, n) -> failures.merge(message, n, Long::sum)));
    long count = same.stream().mapToLong(Results.Entry::count).sum();
    String firstStart = same.stream().map(Results.Entry::firstStart).filter(Objects::nonNull)
        .min(Comparator.comparing(Instant::parse)).orElse(null);
    String lastEnd = same.stream().map(Results.Entry::lastEnd).filter(Objects::nonNull)
        .max(Comparator.comparing(Instant::parse)).orElse(null);
    long spanMillis = firstStart == null || lastEnd == null ? 0
        : Duration.between(Instant.parse(firstStart), Instant.parse(lastEnd)).toMillis();
    Histogram ok = totals.getOrDefault(first.okTag(), Outcomes.newCompact());
    return new Results.Entry(first.name(), first.kind(), first.clock(), first.warmUp(), count,
        same.stream().mapToLong(Results.Entry::ok).sum(), same.stream().mapToLong(Results.Entry::ko).sum(), failures,
        Entries.rate(count, spanMillis), Entries.latency(ok, first.clock()), first.okTag(), first.koTag(), firstStart,
        lastEnd);
  }

  /**
   * Each counter once: the earliest reading before any load, the latest after all of it, every injector's acks; n/a
   * when an injector could not read it. With lost injectors, their flushed keys count as acknowledged (the counters are
   * of the requests that write the key files: MemSet's sets, CouchSet's documents) and the check is a lower bound.
   */
  static List<Results.ServerCount> serverCounts(List<Results> all, List<Results.LostInjector> lost) {
    Map<String, List<Results.ServerCount>> byCounter = new LinkedHashMap<>();
    Map<String, String> notCounted = new LinkedHashMap<>();
    for (Results results : all) {
      for (Results.ServerCount count : results.serverCounts()) {
        byCounter.computeIfAbsent(count.counter(), k -> new ArrayList<>()).add(count);
        if (!count.counted()) {
          notCounted.putIfAbsent(count.counter(), "injector " + results.run().injector() + ": " + count.notCounted());
        }
      }
    }
    long lostKeys = lost.stream().flatMap(injector -> injector.keyFiles().stream())
        .mapToLong(Results.LostKeyFile::keys).sum();
    String incomplete = lost.isEmpty() ? null : "of which " + lostKeys + " are keys that the lost injector"
        + (lost.size() > 1 ? "s " : " ") + lost.stream().map(Results.LostInjector::injector)
            .collect(Collectors.joining(", ")) + " had flushed to " + (lost.size() > 1 ? "their" : "its")
        + " key file; the rest of " + (lost.size() > 1 ? "their" : "its") + " requests (warm-up, the last flush"
        + " interval, those in flight) are not known";
    List<Results.ServerCount> counts = new ArrayList<>();
    for (List<Results.ServerCount> same : byCounter.values()) {
      Results.ServerCount first = same.get(0);
      long acknowledged = same.stream().mapToLong(Results.ServerCount::acknowledged).sum() + lostKeys;
      if (notCounted.containsKey(first.counter())) {
        counts.add(new Results.ServerCount(first.counter(), null, null, null, null, acknowledged, first.requests(),
            notCounted.get(first.counter()), incomplete));
        continue;
      }
      Results.ServerCount before =
          same.stream().min(Comparator.comparing(c -> Instant.parse(c.beforeAt()))).orElseThrow();
      Results.ServerCount after =
          same.stream().max(Comparator.comparing(c -> Instant.parse(c.afterAt()))).orElseThrow();
      counts.add(new Results.ServerCount(before.counter(), before.before(), before.beforeAt(), after.after(),
          after.afterAt(), acknowledged, before.requests(), null, incomplete));
    }
    return counts;
  }

  /**
   * The merged summary: the simulation's page of the whole run, the injectors and links to their reports, the counts,
   * the latency table and chart.
   */
  private static SummaryPage page(SummaryPage own, List<InjectorRun> injectors, Results merged,
      Map<String, Histogram> totals, Path out, List<String> problems, List<Path> leftOut) {
    Results.Run run = merged.run();
    List<String> intro = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    if (!merged.lostInjectors().isEmpty()) {
      warnings.add(lostLine(merged) + ": every figure below is of the " + injectors.size() + " that ended.");
    }
    for (Results.LostInjector lost : merged.lostInjectors()) {
      for (Results.LostKeyFile keys : lost.keyFiles()) {
        warnings.add(keys.state().equals(Results.LostKeyFile.PARTIAL)
            ? "Key file of lost injector " + lost.injector() + ": " + out.resolve(keys.path()).normalize() + " ("
                + keys.state() + "), " + keys.keys() + " keys it had flushed, each acknowledged, joined into the merged"
                + " key file."
            : "Key file of lost injector " + lost.injector() + ": " + keys.state() + " (no "
                + Path.of(keys.keyFile()).getFileName() + " of it where the other injectors' are): its keys are not in"
                + " the merged key file.");
      }
    }
    leftOut.forEach(folder -> warnings.add(folder + " holds no " + ResultsFile.NAME + " (its injector did not end its"
        + " run): left out."));
    intro.add("Merged from " + (merged.lostInjectors().isEmpty() ? "" : injectors.size() + " of ")
        + (injectors.size() + merged.lostInjectors().size()) + " injectors: " + run.simulation() + " from " + run.start() + " to "
        + run.end() + (run.startAt() == null ? "" : ", load started at -DstartAt=" + run.startAt()) + ", largest start"
        + " skew " + (run.startSkewMillis() == null ? "n/a (no -DstartAt)" : run.startSkewMillis() + " ms") + ". Counts"
        + " are the injectors' sums, rates over the union of their windows, percentiles from their added histograms"
        + " (histograms.hlog holds every injector's intervals); each injector's Gatling report is linked at the end.");
    for (Results.KeyFile keys : merged.keyFiles()) {
      Path file = out.resolve(keys.path());
      intro.add("Key file " + file + ": " + keys.keys() + " acknowledged keys of all injectors (-DkeyFile=" + file
          + " reads them).");
    }
    warnings.addAll(problems.stream().map(problem -> problem + ".").toList());
    SummaryPage page = own.retitled(own.title() + " (" + (merged.lostInjectors().isEmpty() ? ""
        : injectors.size() + " of ") + (injectors.size() + merged.lostInjectors().size()) + " injectors, merged)")
        .linesFirst(intro).warningsFirst(warnings);
    page = ResultsPage.addTo(page, merged, okTotals(merged, totals));
    for (InjectorRun injector : injectors) {
      Results.Run ran = injector.results().run();
      page = page.link("injector " + injector.share() + ": Gatling's report (" + ran.start() + " to " + ran.end()
          + (ran.startSkewMillis() == null ? "" : ", started " + ran.startSkewMillis() + " ms after -DstartAt") + ")",
          relative(out, injector.folder().resolve("index.html")));
    }
    return page;
  }

  /**
   * @param merged merged results
   * @return e.g. "2 of 3 injectors; injector 2/3: ended with exit code 137", or "3 of 3 injectors"
   */
  public static String lostLine(Results merged) {
    int ended = merged.run().injectorCount();
    return ended + " of " + (ended + merged.lostInjectors().size()) + " injectors" + merged.lostInjectors().stream()
        .map(lost -> "; injector " + lost.injector() + ": " + lost.why()).collect(Collectors.joining());
  }

  private static Map<String, Histogram> okTotals(Results merged, Map<String, Histogram> totals) {
    return merged.requests().stream().filter(e -> totals.containsKey(e.okTag()))
        .collect(Collectors.toMap(Results.Entry::okTag, e -> totals.get(e.okTag()), (x, y) -> x, LinkedHashMap::new));
  }

  private static String relative(Path from, Path to) {
    return from.toAbsolutePath().normalize().relativize(to.toAbsolutePath().normalize()).toString();
  }

  private static String earliest(List<Results> all, Function<Results, String> instant) {
    return all.stream().map(instant).min(Comparator.comparing(Instant::parse)).orElseThrow();
  }

  private static String latest(List<Results> all, Function<Results, String> instant) {
    return all.stream().map(instant).max(Comparator.comparing(Instant::parse)).orElseThrow();
  }
}
