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
   * N injectors started, each in its Gatling JVM.
   *
   * @param injectors injector I at index I
   * @param startAt the agreed start they were given
   */
  public record Started(List<GatlingRun.Running> injectors, Instant startAt) {}

  /**
   * What exec:java@merge did.
   *
   * @param exitCode MergeCommand's exit code: 0, 3 with lost injectors, 1 when nothing was written
   * @param printed what it printed
   * @param merged the folder it wrote, null when it wrote none
   * @param resultsRoot the results root it ran with (-Dcouchbench.reports)
   */
  public record Merged(int exitCode, String printed, Path merged, Path resultsRoot) {}

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
    Started started = start(simulation, count, properties, startIn);
    List<GatlingRun.Result> results = new ArrayList<>();
    for (GatlingRun.Running injector : started.injectors()) {
      results.add(injector.finish(timeout)); // every one ends before any is judged: none is left running
    }
    List<Path> folders = new ArrayList<>();
    for (GatlingRun.Result result : results) {
      assertEquals(0, result.exitCode(), result.output());
      folders.add(result.requireRunFolder());
    }
    Merged merged = merge(folders, "");
    assertEquals(0, merged.exitCode(), merged.printed());
    assertEquals(1, merged.printed().strip().lines().count(), "one line naming the merged folder: " + merged.printed());
    return new Run(List.copyOf(folders), merged.merged(), started.startAt(), merged.resultsRoot());
  }

  /**
   * Starts N Gatling JVMs with -Dinjector=I/N and one -DstartAt, and returns at once.
   *
   * @param simulation the simulation's class name
   * @param count N
   * @param properties -D properties every injector gets
   * @param startIn how far ahead the agreed start is
   * @return the running injectors
   */
  public static Started start(String simulation, int count, Map<String, String> properties, Duration startIn)
      throws IOException {
    Instant startAt = Instant.now().plus(startIn).truncatedTo(ChronoUnit.SECONDS);
    List<GatlingRun.Running> running = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> own = new HashMap<>(properties);
      own.put("injector", i + "/" + count);
      own.put("startAt", startAt.toString());
      running.add(GatlingRun.start(simulation, own, Map.of()));
    }
    return new Started(List.copyOf(running), startAt);
  }

  /**
   * Merges run folders as exec:java@merge does, without -Dout: into a results root of its own, where it picks the
   * folder's name. The folders are given in reverse order: Merge orders them by index.
   *
   * @param folders the injectors' run folders
   * @param lost why injectors left no results, "I=why;..." (-Dlost), or empty
   * @return what it did
   */
  public static Merged merge(List<Path> folders, String lost) throws IOException, InterruptedException {
    Path resultsRoot = Files.createDirectories(Path.of("target", "it-runs", "merge-" + System.nanoTime()))
        .toAbsolutePath();
    List<String> given = new ArrayList<>(folders.stream().map(Path::toString).toList());
    Collections.reverse(given);
    Process merge = ChildJvm.start(Map.of("couchbench.reports", resultsRoot.toString()), MergeCommand.class,
        String.join(",", given), "", lost);
    String printed = new String(merge.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    int exitCode = merge.waitFor();
    Matcher said = MERGED.matcher(printed);
    return new Merged(exitCode, printed, said.find() ? Path.of(said.group(1)) : null, resultsRoot);
  }

  /** What MergeCommand prints: the merged summary's path, and what is beside it. */
  private static final Pattern MERGED = Pattern.compile(
      "(?m)^merge: (\\S+)/summary\\.html, with results\\.json and histograms\\.hlog beside it \\([\\d.]+ s\\)$");
}
