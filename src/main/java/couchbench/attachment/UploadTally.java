package couchbench.attachment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the uploads of a run did, by method, size and round: the time of every upload that was read back
 * intact, and why the others failed. The run's one virtual user writes it while the load runs;
 * the summary reads it after.
 */
public final class UploadTally {

  /**
   * One method at one size in one round.
   *
   * @param method how the attachments were sent
   * @param exponent their size is 10^exponent bytes
   * @param round the round of the sweep, 1 to rounds
   */
  public record Key(AttachmentMethod method, int exponent, int round) {

    /**
     * @param upload one upload of the plan
     * @return its method, size and round
     */
    static Key of(AttachmentPlan.Upload upload) {
      return new Key(upload.method(), upload.exponent(), upload.round());
    }
  }

  /**
   * The figures of one method at one size in one round.
   *
   * @param planned uploads the plan asked for at least (repeat; the step-length rule may add some)
   * @param seconds the time of each upload read back intact, in the order they ran
   * @param failures failure messages and how often each occurred
   */
  public record Figures(int planned, List<Double> seconds, Map<String, Integer> failures) {

    /** @return uploads read back intact */
    public int verified() {
      return seconds.size();
    }

    /** @return the median time in seconds, or null when no upload was verified */
    public Double median() {
      List<Double> sorted = seconds.stream().sorted().toList();
      int n = sorted.size();
      if (n == 0) {
        return null;
      }
      return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** @return the shortest time in seconds, or null when no upload was verified */
    public Double min() {
      return seconds.stream().min(Double::compare).orElse(null);
    }

    /** @return the verified uploads' time together, in seconds */
    public double uploading() {
      return seconds.stream().mapToDouble(Double::doubleValue).sum();
    }

    /** @return true when the figure rests on enough uploads or time (see {@link AttachmentPlan#restsOnEnough}) */
    public boolean restsOnEnough() {
      return AttachmentPlan.restsOnEnough(verified(), uploading());
    }
  }

  private final Map<Key, Integer> planned = new LinkedHashMap<>();
  private final Map<Key, List<Double>> seconds = new LinkedHashMap<>();
  private final Map<Key, Map<String, Integer>> failures = new LinkedHashMap<>();

  /**
   * A tally of a plan's uploads, none done yet.
   *
   * @param plan the uploads to count
   */
  public UploadTally(AttachmentPlan plan) {
    for (AttachmentPlan.Upload upload : plan.uploads()) {
      planned.merge(Key.of(upload), upload.whileShort() ? 0 : 1, Integer::sum);
    }
  }

  /**
   * Counts an upload read back intact.
   *
   * @param key the method, size and round
   * @param uploadSeconds the upload's time, the read-back apart
   */
  public synchronized void verified(Key key, double uploadSeconds) {
    seconds.computeIfAbsent(key, k -> new ArrayList<>()).add(uploadSeconds);
  }

  /**
   * Counts a failure of another kind, e.g. an upload stored but not read back intact.
   *
   * @param key the method, size and round
   * @param message what went wrong
   */
  public synchronized void fail(Key key, String message) {
    failures.computeIfAbsent(key, k -> new LinkedHashMap<>()).merge(message, 1, Integer::sum);
  }

  /**
   * Whether an upload of this method and size failed already in this round: the rest of them are skipped.
   *
   * @param key the method, size and round
   * @return true after a failure
   */
  public synchronized boolean failed(Key key) {
    return failures.containsKey(key);
  }

  /**
   * The figures of every method, size and round of the plan, as they are now.
   *
   * @return them, in the order the plan runs them
   */
  public synchronized List<AttachmentFigures.Measured> figures() {
    return planned.keySet().stream().map(key -> new AttachmentFigures.Measured(key, figures(key))).toList();
  }

  /**
   * The figures of one method at one size in one round.
   *
   * @param key the method, size and round
   * @return the figures; all empty for a pair the plan did not have
   */
  public synchronized Figures figures(Key key) {
    return new Figures(planned.getOrDefault(key, 0), List.copyOf(seconds.getOrDefault(key, List.of())),
        Map.copyOf(failures.getOrDefault(key, Map.of())));
  }
}
