package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.TreeSet;

/** A Replicate run's lists of one entry per replication job, checked for their length before a test loops over them. */
final class PerJob {

  private PerJob() {}

  /**
   * @param figures results.json's figures
   * @param list the list's name, e.g. comparisons
   * @param jobs the run's -Djobs
   * @return the list, asserted to hold one entry per job, each job once: a loop over it would pass with none
   */
  static JsonNode entries(JsonNode figures, String list, int jobs) {
    JsonNode entries = figures.path(list);
    Set<Integer> numbers = new TreeSet<>();
    entries.forEach(entry -> numbers.add(entry.path("job").asInt()));
    assertEquals(jobs, entries.size(), list + ", one entry per job: " + entries);
    assertEquals(jobs, numbers.size(), list + ", each job once: " + entries);
    return entries;
  }
}
