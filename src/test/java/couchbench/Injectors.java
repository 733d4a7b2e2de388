package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.merge.MergeCommand;
import couchbench.targets.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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

/**
 * N injectors of one simulation run here at once, as bench/injectors.sh and the Kubernetes Job run them, then merged;
 * their start is agreed once every one is ready (-DstartAtFile), not guessed ahead (-DstartAt).
 */
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

  /**
   * How far ahead of the moment the last injector said it is ready their start is. Each looks for the file every 50 ms,
   * but a start 1 s ahead had ScaleOutIT's CouchSet injectors send their first 20/s step at 0-16/s in two runs out of
   * three on this 2-core machine at a load average of 10-16 (their first requests up to 2 s late, their JVMs idle),
   * where a start 7 s after they were ready had it at 20-29/s.
   */
  private static final Duration START_AFTER_READY = Duration.ofSeconds(3);

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
   * Starts N Gatling JVMs with -Dinjector=I/N and one start agreed once all are ready ({@link #start}), waits for all,
   * checks that each passed, and merges.
   *
   * @param simulation the simulation's class name
   * @param count N
   * @param properties -D properties every injector gets
   * @param timeout how long each run may go without progress
   * @return the folders
   */
  public static Run run(String simulation, int count, Map<String, String> properties, Duration timeout)
      throws IOException, InterruptedException {
    Started started = start(simulation, count, properties, timeout);
    List<GatlingRun.Result> results = new ArrayList<>();
    for (GatlingRun.Running injector : started.injectors()) {
      results.add(injector.finish(timeout)); // every one ends before any is judged: none is left running
    }
    List<Path> folders = new ArrayList<>();
    for (GatlingRun.Result result : results) {
      assertEquals(0, result.exitCode(), result.why());
      folders.add(result.requireRunFolder());
    }
    Merged merged = merge(folders, "");
    assertEquals(0, merged.exitCode(), merged.printed());
    assertEquals(1, merged.printed().strip().lines().count(), "one line naming the merged folder: " + merged.printed());
    return new Run(List.copyOf(folders), merged.merged(), started.startAt(), merged.resultsRoot());
  }

  /**
   * Starts N Gatling JVMs with -Dinjector=I/N and one -DstartAtFile, waits until every one says it is ready, then
   * writes the agreed start there, {@link #START_AFTER_READY} ahead, and returns.
   *
   * @param simulation the simulation's class name
   * @param count N
   * @param properties -D properties every injector gets
   * @param stall how long an injector may go without progress before it is ready
   * @return the running injectors, with the start they were given
   */
  public static Started start(String simulation, int count, Map<String, String> properties, Duration stall)
      throws IOException, InterruptedException {
    Path startAtFile = Files.createTempDirectory(Files.createDirectories(Path.of("target", "it-runs")), "start-")
        .resolve("start-at").toAbsolutePath();
    List<GatlingRun.Running> running = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Map<String, String> own = new HashMap<>(properties);
      own.put("injector", i + "/" + count);
      own.put("startAtFile", startAtFile.toString());
      running.add(GatlingRun.start(simulation, own, Map.of()));
    }
    try {
      for (int i = 0; i < count; i++) {
        running.get(i).awaitLine("couchbench: injector " + i + "/" + count + ": ready, waiting for -DstartAtFile=.*",
            stall);
      }
    } catch (AssertionError | IOException | InterruptedException e) {
      running.forEach(injector -> injector.process().destroyForcibly()); // none is left waiting for a start
      throw e;
    }
    Instant startAt = Instant.now().plus(START_AFTER_READY).truncatedTo(ChronoUnit.MILLIS);
    Path written = Files.writeString(startAtFile.resolveSibling("start-at.tmp"), startAt.toString());
    Files.move(written, startAtFile, StandardCopyOption.ATOMIC_MOVE); // read whole or not at all
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
