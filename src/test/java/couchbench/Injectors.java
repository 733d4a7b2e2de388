package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.merge.MergeCommand;
import couchbench.targets.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** N injectors of one simulation run here at once, as bench/injectors.sh and the Kubernetes Job run them, then merged. */
public final class Injectors {

  /**
   * What the run left: each injector's run folder, in index order, and the merged folder.
   *
   * @param folders injector I's run folder at index I
   * @param merged the folder Merge wrote
   * @param startAt the agreed start the injectors were given
   * @param resultsRoot the results root Merge ran with (-Dcouchbench.reports), where it wrote the merged folder
   */
  public record Run(List<Path> folders, Path merged, Instant startAt, Path resultsRoot) {}

  private Injectors() {}

  /**
   * Starts N Gatling JVMs with -Dinjector=I/N and one -DstartAt, waits for all, checks that each passed, and merges.
   *
   * @param simulation the simulation's class name
   * @param count N
   * @param properties -D properties every injector gets
   * @param startIn how far ahead the agreed start is: long enough for every JVM to be ready by then
   * @param timeout how long each run may take
   * @return the folders
   */
  public static Run run(String simulation, int count, Map<String, String> properties, Duration startIn,
      Duration timeout) throws IOException, InterruptedException {
    Instant startAt = Instant.now().plus(startIn).truncatedTo(ChronoUnit.SECONDS);
    List<GatlingRun.Running> running = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> own = new HashMap<>(properties);
      own.put("injector", i + "/" + count);
      own.put("startAt", startAt.toString());
      running.add(GatlingRun.start(simulation, own, Map.of()));
    }
    List<GatlingRun.Result> results = new ArrayList<>();
    for (GatlingRun.Running injector : running) {
      results.add(injector.finish(timeout)); // every one ends before any is judged: none is left running
    }
    List<Path> folders = new ArrayList<>();
    for (GatlingRun.Result result : results) {
      assertEquals(0, result.exitCode(), result.output());
      folders.add(result.requireRunFolder());
    }
    // As exec:java@merge runs it, without -Dout: into a results root of its own, where it picks the folder's name.
    Path resultsRoot = Files.createDirectories(Path.of("target", "it-runs", "merge-" + System.nanoTime()))
        .toAbsolutePath();
    // Given out of order: Merge orders them by index.
    List<String> given = new ArrayList<>(folders.stream().map(Path::toString).toList());
    Collections.reverse(given);
    Process merge = ChildJvm.start(Map.of("couchbench.reports", resultsRoot.toString()), MergeCommand.class,
        String.join(",", given));
    String printed = new String(merge.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, merge.waitFor(), printed);
    Matcher said = MERGED.matcher(printed.strip());
    assertTrue(said.matches(), "one line naming the merged folder: " + printed);
    return new Run(List.copyOf(folders), Path.of(said.group(1)), startAt, resultsRoot);
  }

  /** What MergeCommand prints: the merged summary's path, and what is beside it. */
  private static final Pattern MERGED =
      Pattern.compile("merge: (\\S+)/summary\\.html, with results\\.json and histograms\\.hlog beside it \\([\\d.]+ s\\)");
}
