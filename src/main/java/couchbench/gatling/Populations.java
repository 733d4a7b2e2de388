package couchbench.gatling;

import io.gatling.javaapi.core.PopulationBuilder;
import java.util.List;

/** How the sweeps (BulkInsert's steps, CouchVsMemcache's phases) chain their populations. */
public final class Populations {

  private Populations() {}

  /**
   * Populations run one after the other, each starting when the previous one's last user has ended.
   *
   * @param populations the populations, in the order they run; at least one
   * @return the first, with the others chained after it: {@code a.andThen(b.andThen(c))}, since
   *     {@code a.andThen(b).andThen(c)} would start b and c side by side
   */
  public static PopulationBuilder oneAfterAnother(List<PopulationBuilder> populations) {
    PopulationBuilder rest = populations.get(populations.size() - 1);
    for (int i = populations.size() - 2; i >= 0; i--) {
      rest = populations.get(i).andThen(rest);
    }
    return rest;
  }
}
