package couchbench.distributions;

/**
 * Turns among shares, smoothly interleaved: the weighted round robin nginx uses, where each share gets exactly its
 * part of every whole round and no share's turns bunch up (weights 5, 1, 1 give a a b a c a a). One user's; not
 * thread-safe.
 */
public final class SmoothTurns {

  private final int[] weights;
  private final long[] current;
  private final int total;

  /** @param weights each share's weight, above 0 */
  public SmoothTurns(int... weights) {
    this.weights = weights.clone();
    this.current = new long[weights.length];
    int sum = 0;
    for (int weight : weights) {
      sum += weight;
    }
    this.total = sum;
  }

  /** @return the share whose turn is next, its index in the weights */
  public int next() {
    int chosen = 0;
    for (int share = 0; share < weights.length; share++) {
      current[share] += weights[share];
      if (current[share] > current[chosen]) {
        chosen = share;
      }
    }
    current[chosen] -= total;
    return chosen;
  }
}
