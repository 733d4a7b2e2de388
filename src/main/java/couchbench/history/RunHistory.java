package couchbench.history;

import couchbench.results.Results;
import couchbench.results.ResultsException;
import couchbench.results.ResultsFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every run kept under the results root: each folder's results.json (single runs and merged ones), oldest first. A
 * folder of a run (Gatling's simulation.log, or a results.json) whose results cannot be read is named with why and
 * left out; folders of other kinds (compare pages) are passed by.
 *
 * @param runs each run's results, by folder, in the order the runs started
 * @param leftOut the runs left out, each "folder: why"
 */
record RunHistory(Map<Path, Results> runs, List<String> leftOut) {

  /**
   * @param root the results root, e.g. reports/
   * @return the runs under it
   * @throws UncheckedIOException when the root cannot be listed
   */
  static RunHistory read(Path root) {
    List<Map.Entry<Path, Results>> read = new ArrayList<>();
    List<String> leftOut = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return new RunHistory(Map.of(), List.of());
    }
    try (Stream<Path> folders = Files.list(root)) {
      for (Path folder : folders.filter(Files::isDirectory).sorted().toList()) {
        if (!Files.exists(folder.resolve(ResultsFile.NAME)) && !Files.exists(folder.resolve("simulation.log"))) {
          continue;
        }
        try {
          read.add(Map.entry(folder, ResultsFile.read(folder)));
        } catch (ResultsException e) {
          leftOut.add(e.getMessage());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("listing " + root, e);
    }
    read.sort(Comparator.comparing(run -> String.valueOf(run.getValue().run().start())));
    Map<Path, Results> runs = new LinkedHashMap<>();
    read.forEach(run -> runs.put(run.getKey(), run.getValue()));
    return new RunHistory(runs, leftOut);
  }
}
