package couchbench.trend;

import couchbench.report.SummaryPage;
import couchbench.results.Merge;
import couchbench.results.Results;
import couchbench.startup.SettingsException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * -Dtrend on a merged run: each injector's seconds judged as its own run judged them, side by side on the merged page,
 * each column named after its injector. The merged run has no seconds of its own: a second's p99 of several injectors
 * is not theirs combined, and each injector read the same servers.
 */
public final class InjectorTrends implements Merge.FromInjectors {

  private final Optional<String> given;
  private boolean rises;

  /** @param given -Dtrend given to the merge, judging by other thresholds than the injectors' own -Dtrend */
  public InjectorTrends(Optional<String> given) {
    this.given = given;
  }

  @Override
  public SummaryPage addTo(SummaryPage page, Results merged, Map<String, Path> injectors) {
    Optional<TrendPlan> plan;
    try {
      plan = TrendPlan.parse(given.or(() -> Optional.ofNullable(merged.run().parameters().get("trend"))));
    } catch (SettingsException e) {
      return page.warning("-Dtrend: not judged: " + e.getMessage());
    }
    if (plan.isEmpty()) {
      return page;
    }
    TrendExtension.Judged judged = TrendExtension.judge(plan.get(), page, injectors);
    rises |= judged.rises();
    return judged.page();
  }

  /**
   * @return whether an injector's series rose beyond its threshold: the merge then ends with {@link
   *     TrendExtension#RISES}
   */
  public boolean rises() {
    return rises;
  }
}
