package couchbench.distributions;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.DiscreteProbabilityCollectionSampler;
import org.apache.commons.rng.sampling.ObjectSampler;

/**
 * Kinds (e.g. a workload's operations) in given proportions, drawn with Commons RNG, as YCSB's operation chooser
 * draws its operations. Immutable; each user takes its own {@link #sampler}.
 *
 * @param <T> the kind
 */
public final class Mix<T> {

  /** How far the proportions' sum may be from 1. */
  static final double TOLERANCE = 1e-9;

  private final Map<T, Double> proportions;

  private Mix(Map<T, Double> proportions) {
    this.proportions = proportions;
  }

  /**
   * @param proportions each kind's proportion, >= 0, adding up to 1; a kind of proportion 0 is never drawn
   * @param <T> the kind
   * @return the mix
   * @throws IllegalArgumentException with one line naming the proportions and their sum when a proportion is below 0
   *     or not a number, or they do not add up to 1
   */
  public static <T> Mix<T> of(Map<T, Double> proportions) {
    double sum = 0;
    boolean numbers = true;
    for (double proportion : proportions.values()) {
      numbers &= proportion >= 0 && proportion <= 1;
      sum += proportion;
    }
    if (!numbers || !(Math.abs(sum - 1) <= TOLERANCE)) {
      throw new IllegalArgumentException("proportions " + proportions + " add up to " + sum + "; allowed: numbers"
          + " from 0 to 1 that add up to 1");
    }
    Map<T, Double> drawn = new LinkedHashMap<>();
    proportions.forEach((kind, proportion) -> {
      if (proportion > 0) {
        drawn.put(kind, proportion);
      }
    });
    return new Mix<>(Collections.unmodifiableMap(drawn));
  }

  /** @return the kinds drawn, in the order given, with their proportions */
  public Map<T, Double> proportions() {
    return proportions;
  }

  /**
   * @param random where the user's draws come from
   * @return a sampler of the kinds for one user (not thread-safe)
   */
  public ObjectSampler<T> sampler(UniformRandomProvider random) {
    return new DiscreteProbabilityCollectionSampler<>(random, proportions);
  }
}
