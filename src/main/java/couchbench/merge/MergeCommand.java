package couchbench.merge;

import couchbench.attachment.AttachmentPlan;
import couchbench.attachment.AttachmentSummary;
import couchbench.bulkinsert.BulkInsertPlan;
import couchbench.bulkinsert.BulkInsertSummary;
import couchbench.cacheaside.CacheAsideSummary;
import couchbench.requests.CouchRequests;
import couchbench.requests.MemcacheRequests;
import couchbench.results.Merge;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.results.Summary;
import couchbench.siege.SiegePlan;
import couchbench.siege.SiegeSummary;
import couchbench.startup.OneLineException;
import couchbench.startup.Settings;
import couchbench.versus.VersusPlan;
import couchbench.versus.VersusSummary;
import couchbench.viewquery.ViewQueryPlan;
import couchbench.sync.SyncSummary;
import couchbench.tenants.TenantsSummary;
import couchbench.trend.InjectorTrends;
import couchbench.trend.TrendExtension;
import couchbench.viewquery.ViewQuerySummary;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * {@code mvn -q exec:java@merge -Druns=A,B[,...] [-Dout=folder] [-Dtrend=...]}: {@link Merge} with every simulation's
 * summary, each made from the parameters the injectors' results list (less -Dinjector, so it describes the whole run),
 * and each injector's trends judged where the injectors ran with -Dtrend (or the merge is given one). It lives
 * apart from Merge because it knows every simulation, and the simulations' packages use the results package.
 */
public final class MergeCommand {

  private MergeCommand() {}

  /** The exit code of a merge that left out injectors that left no results: the others' are merged. */
  public static final int SOME_LOST = 3;

  /**
   * Exits 0 when every injector was merged, {@value #SOME_LOST} when some were lost (their line is printed last, "2 of
   * 3 injectors; injector 2/3: why"), 7 when none was but an injector's series rose beyond its -Dtrend threshold, 1
   * when nothing was written.
   *
   * @param args "A,B,..." (the injectors' run folders), then optionally the merged folder, then optionally why
   *     injectors left no results ("2=why;3=why")
   */
  public static void main(String[] args) {
    try {
      long start = System.nanoTime();
      InjectorTrends trends = new InjectorTrends(Optional.ofNullable(System.getProperty("trend")));
      Path written = Merge.run(args, MergeCommand::summaryOf, trends);
      System.out.printf("merge: %s, with results.json and histograms.hlog beside it (%.1f s)%n",
          written.toAbsolutePath(), (System.nanoTime() - start) / 1e9);
      Results merged = ResultsFile.read(written.getParent());
      if (!merged.lostInjectors().isEmpty()) {
        System.out.println("merge: " + Merge.lostLine(merged));
        System.exit(SOME_LOST);
      }
      if (trends.rises()) {
        System.out.println("merge: an injector's series rose beyond its threshold (-Dtrend): exit code "
            + TrendExtension.RISES);
        System.exit(TrendExtension.RISES);
      }
    } catch (OneLineException e) { // a results.json that cannot be read, or parameters a plan refuses
      System.err.println("merge: " + e.getMessage());
      System.exit(1);
    }
  }

  /**
   * @param run a run, as its results.json describes it
   * @return its simulation's summary, from the run's parameters; empty for a simulation couchbench does not know
   */
  public static Optional<Summary<?>> summaryOf(Results.Run run) {
    Settings settings = Settings.of(run.parameters(), Map.of());
    return switch (run.simulation()) {
      case "MemSet" -> Optional.of(SiegeSummary.of(run.simulation(), SiegePlan.from(settings), MemcacheRequests.SET));
      case "MemGet" -> Optional.of(SiegeSummary.of(run.simulation(), SiegePlan.from(settings),
          MemcacheRequests.getNames()));
      case "CouchSet" -> Optional.of(SiegeSummary.of(run.simulation(), SiegePlan.from(settings).forHttp("CouchSet"),
          CouchRequests.SET));
      case "CouchGet" -> Optional.of(SiegeSummary.of(run.simulation(), SiegePlan.from(settings).forHttp("CouchGet"),
          CouchRequests.GET));
      case "CouchVsMemcache" -> Optional.of(VersusSummary.of(run.simulation(), VersusPlan.from(settings)));
      case "ViewQuery" -> Optional.of(ViewQuerySummary.of(ViewQueryPlan.from(settings)));
      case "AttachmentUpload" -> Optional.of(AttachmentSummary.of(AttachmentPlan.from(settings)));
      case "BulkInsert" -> Optional.of(BulkInsertSummary.of(BulkInsertPlan.from(settings)));
      case "Sync" -> Optional.of(new SyncSummary());
      case "CacheAside" -> Optional.of(new CacheAsideSummary());
      case "Tenants" -> Optional.of(new TenantsSummary());
      default -> Optional.empty();
    };
  }
}
