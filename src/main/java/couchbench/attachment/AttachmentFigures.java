package couchbench.attachment;

import couchbench.attachment.UploadTally.Figures;
import couchbench.attachment.UploadTally.Key;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * AttachmentUpload's own figures, as results.json keeps them under {@code figures}: every upload's time and failure,
 * by method, size and round.
 *
 * @param databases the database each injector uploaded into, injector 0's first
 * @param loginRefused whether CouchDB refused the login during the run (of any injector, merged)
 * @param uploads the figures of every method, size and round of the plan
 */
public record AttachmentFigures(List<String> databases, boolean loginRefused,
    List<Measured> uploads) {

  /**
   * One method at one size in one round, and its figures.
   *
   * @param key the method, size and round
   * @param figures its uploads' times and failures
   */
  public record Measured(Key key, Figures figures) {}

  /**
   * The figures of a whole run from its injectors': for each method, size and round, the uploads planned added, the
   * times of all of them together (injector 0's first), the failures added by message.
   *
   * @param injectors each injector's figures, injector 0 first
   * @return the run's
   */
  public static AttachmentFigures merge(List<AttachmentFigures> injectors) {
    Map<Key, List<Figures>> byKey = new LinkedHashMap<>();
    injectors.forEach(each -> each.uploads().forEach(measured -> byKey.computeIfAbsent(measured.key(),
        key -> new ArrayList<>()).add(measured.figures())));
    List<Measured> uploads = byKey.entrySet().stream().map(same -> new Measured(same.getKey(),
        new Figures(same.getValue().stream().mapToInt(Figures::planned).sum(),
            same.getValue().stream().flatMap(figures -> figures.seconds().stream()).toList(),
            failures(same.getValue())))).toList();
    return new AttachmentFigures(injectors.stream().flatMap(each -> each.databases().stream()).toList(),
        injectors.stream().anyMatch(AttachmentFigures::loginRefused), uploads);
  }

  /**
   * The figures of one method at one size in one round.
   *
   * @param key the method, size and round
   * @return the figures; all empty for a pair the plan did not have
   */
  public Figures figures(Key key) {
    return uploads.stream().filter(measured -> measured.key().equals(key)).map(Measured::figures).findFirst()
        .orElse(new Figures(0, List.of(), Map.of()));
  }

  private static Map<String, Integer> failures(List<Figures> same) {
    Map<String, Integer> failures = new LinkedHashMap<>();
    same.stream().flatMap(figures -> figures.failures().entrySet().stream())
        .forEach(failure -> failures.merge(failure.getKey(), failure.getValue(), Integer::sum));
    return failures;
  }
}
