package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import couchbench.targets.ChildJvm;
import couchbench.targets.SharedClassArchive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a simulation the way the Gatling Maven plugin does: a fresh JVM running Gatling's main class
 * with the test classpath, the plugin's --add-opens, and -D properties, -Dcouchbench.defaultPorts=false
 * among them unless the test says otherwise. Output goes to a log file.
 *
 * <p>A run's limit is not a wall-clock time, which a busy machine overruns without a defect: a run is killed once it
 * has shown no progress for the time a test gives, progress being a new line of output other than a progress line
 * whose counts are the last one's (nothing ended since, as a hung load prints). A run that makes progress is never
 * killed.
 */
public final class GatlingRun {

  /** How often {@link Running#finish} looks at the run's output. */
  private static final Duration POLL = Duration.ofMillis(200);

  private static final String PROGRESS = "couchbench: progress: ";
  // A progress line's rates, rounded to whole requests a second (0/s for a slow run's few), and its time left.
  private static final Pattern NOT_COUNTS = Pattern.compile(", [0-9,]+/s|; about .* left$");
  // The lines that say why a run ended as it did: couchbench's stops, warnings and failures, a background task that
  // did not end, Gatling's failed assertions and its errors' table, and the exceptions thrown.
  private static final Pattern CAUSE = Pattern.compile("^couchbench: (?!progress|step)(stopped|WARNING|.*fail|.*did not)|: false \\(|"
      + "^> .*\\([0-9.]+%\\)$|^[a-zA-Z.$]+(Exception|Error)\\b");

  /**
   * What a finished run left behind.
   *
   * @param exitCode the JVM's exit code (0 ok, 2 failed assertions, 1 crash or setup error)
   * @param output everything the run printed, stdout and stderr
   * @param resultsRoot the folder given to Gatling for results
   */
  public record Result(int exitCode, String output, Path resultsRoot) {

    /**
     * @return the run folder: the one a couchbench run named in lastRun.txt (it names Gatling's as the load starts,
     *     and its own where its files could not go beside Gatling's report); for a simulation that is not couchbench's
     *     (a DSL test's), the one folder Gatling wrote; empty if none
     */
    public Optional<Path> runFolder() {
      try {
        Path named = resultsRoot.resolve("lastRun.txt");
        if (Files.exists(named)) {
          return Optional.of(resultsRoot.resolve(Files.readString(named).strip()));
        }
        try (Stream<Path> folders = Files.list(resultsRoot)) {
          return folders.filter(Files::isDirectory).findFirst();
        }
      } catch (IOException e) {
        return Optional.empty();
      }
    }

    /**
     * @return the exit code and the lines that say why the run ended so (see CAUSE) on the first line, then the whole
     *     output: a test report's summary shows a message's first line only, and CI shows no more of a failure
     */
    public String why() {
      String causes = output.lines().filter(CAUSE.asPredicate()).distinct().limit(12)
          .collect(Collectors.joining(" | "));
      return "exit " + exitCode + (causes.isEmpty() ? "" : ": " + causes) + "\n" + output;
    }

    /** @return the run folder, failing the test when Gatling wrote none */
    public Path requireRunFolder() {
      return runFolder().orElseGet(() -> fail("no run folder under " + resultsRoot + "\n" + output));
    }

    /**
     * Asserts that the run stopped before any load with one line and no stack trace, exit code 1.
     *
     * @param line the line it printed, or its start
     */
    public void assertStoppedBeforeLoad(String line) {
      assertEquals(1, exitCode, output);
      assertTrue(output.contains(line), output);
      assertFalse(output.contains("\tat "), "no stack trace: " + output);
      assertFalse(output.contains("couchbench: run folder:"), "no load: " + output);
    }
  }

  private GatlingRun() {}

  /**
   * Runs one simulation to its end, or kills it once it has shown no progress for {@code stall}.
   *
   * @param simulation the simulation's class name, e.g. BulkInsert
   * @param properties -D properties for the run
   * @param stall how long the run may go without progress
   * @return the result
   */
  public static Result run(String simulation, Map<String, String> properties, Duration stall)
      throws IOException, InterruptedException {
    return run(simulation, properties, Map.of(), stall);
  }

  /**
   * Runs one simulation with extra environment variables (e.g. COUCHDB_PASSWORD).
   *
   * @param simulation the simulation's class name
   * @param properties -D properties for the run
   * @param environment variables added to the run's environment
   * @param stall how long the run may go without progress
   * @return the result
   */
  public static Result run(String simulation, Map<String, String> properties,
      Map<String, String> environment, Duration stall) throws IOException, InterruptedException {
    return start(simulation, properties, environment).finish(stall);
  }

  /**
   * Starts one simulation and returns at once, for tests that act on the run while it goes (kill its
   * target, interrupt it).
   *
   * @param simulation the simulation's class name
   * @param properties -D properties for the run
   * @param environment variables added to the run's environment
   * @return the running simulation
   */
  public static Running start(String simulation, Map<String, String> properties,
      Map<String, String> environment) throws IOException {
    return start(simulation, properties, environment, List.of());
  }

  /**
   * Starts one simulation with JVM options of its own, e.g. a smaller heap, and returns at once.
   *
   * @param simulation the simulation's class name
   * @param properties -D properties for the run
   * @param environment variables added to the run's environment
   * @param jvmOptions given after the defaults -Xmx512m and {@link ChildJvm#C1_ONLY}, so that an -Xmx or a
   *     -XX:TieredStopAtLevel among them wins
   * @return the running simulation
   */
  public static Running start(String simulation, Map<String, String> properties,
      Map<String, String> environment, List<String> jvmOptions) throws IOException {
    Path resultsRoot =
        Files.createDirectories(Path.of("target", "it-runs"))
            .resolve(simulation.toLowerCase() + "-" + System.nanoTime())
            .toAbsolutePath();
    return start(simulation, properties, environment, jvmOptions, resultsRoot);
  }

  /**
   * Starts one simulation whose results go to a folder the test names, e.g. that of an earlier run whose files the
   * run is to find there (a restore file, -Dbaseline=last), and returns at once.
   *
   * @param simulation the simulation's class name
   * @param properties -D properties for the run
   * @param environment variables added to the run's environment
   * @param jvmOptions given after the defaults -Xmx512m and {@link ChildJvm#C1_ONLY}
   * @param resultsRoot the results folder, given to Gatling and to couchbench
   * @return the running simulation
   */
  public static Running start(String simulation, Map<String, String> properties,
      Map<String, String> environment, List<String> jvmOptions, Path resultsRoot) throws IOException {
    Files.createDirectories(resultsRoot);
    Path log = resultsRoot.resolveSibling(resultsRoot.getFileName() + ".log");
    List<String> command = new ArrayList<>();
    // Ctrl-C reaches a user's run, but this JVM may have been started with SIGINT ignored (Maven in the
    // background of a shell without job control), which the run would inherit: perl (Debian's essential
    // perl-base) puts SIGINT back to its default, then becomes the JVM, keeping its pid.
    command.addAll(List.of("perl", "-e", "$SIG{INT} = 'DEFAULT'; exec @ARGV or die \"exec: $!\""));
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(Arrays.asList(System.getProperty("couchbench.opens", "").split(" ")));
    command.add("-Xmx512m");
    command.add(ChildJvm.C1_ONLY);
    command.addAll(jvmOptions);
    // Failsafe puts the whole test classpath here; java.class.path may be just its booter jar.
    SharedClassArchive.Child child =
        SharedClassArchive.next(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.addAll(child.options());
    command.add("-cp");
    command.add(child.classpath());
    command.add("-Dcouchbench.reports=" + resultsRoot);
    command.addAll(ChildJvm.definitions(properties));
    if ("gatling".equals(properties.get("console"))) {
      // As the pom's console-gatling profile does: gatling.conf then puts Gatling's console data writer back.
      command.add("-Dcouchbench.gatlingConsole=console");
    }
    command.addAll(List.of("io.gatling.app.Gatling", "--simulation", simulation,
        "--results-folder", resultsRoot.toString()));
    command.removeIf(String::isEmpty);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
    SharedClassArchive.started(child, process);
    return new Running(simulation, process, log, resultsRoot);
  }

  /** A simulation whose JVM is still running. */
  public static final class Running {

    private final String simulation;
    private final Process process;
    private final Path log;
    private final Path resultsRoot;
    private int logRead;
    private String unfinishedLine = "";
    private String lastCounts = "";
    private long lastProgressNanos = System.nanoTime();

    /**
     * @param simulation named in a failure
     * @param process the run's process
     * @param log where its output goes
     * @param resultsRoot the folder given to Gatling for results
     */
    Running(String simulation, Process process, Path log, Path resultsRoot) {
      this.simulation = simulation;
      this.process = process;
      this.log = log;
      this.resultsRoot = resultsRoot;
    }

    /** @return the Gatling JVM */
    public Process process() {
      return process;
    }

    /** @return what the run printed so far */
    public String output() throws IOException {
      return Files.readString(log, StandardCharsets.UTF_8);
    }

    /**
     * Waits until the run prints a line matching pattern, failing the test when it ends first or shows no progress
     * for {@code stall}.
     *
     * @param pattern a regular expression for a whole line
     * @param stall how long the run may go without progress meanwhile
     * @return the first matching line
     */
    public String awaitLine(String pattern, Duration stall) throws IOException, InterruptedException {
      while (true) {
        Optional<String> line = output().lines().filter(l -> l.matches(pattern)).findFirst();
        if (line.isPresent()) {
          return line.get();
        }
        boolean ended = !process.isAlive();
        if (ended || stalled(stall)) {
          kill();
          return fail(simulation + (ended ? " ended" : " showed no progress for " + stall + ": killed,")
              + " printing no line like " + pattern + "\n" + output());
        }
        Thread.sleep(50);
      }
    }

    /**
     * Waits for the run to end; kills it once it has shown no progress for {@code stall}, failing the test.
     *
     * @param stall how long the run may go without progress
     * @return the result
     */
    public Result finish(Duration stall) throws IOException, InterruptedException {
      while (!process.waitFor(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
        if (stalled(stall)) {
          kill();
          fail(simulation + " showed no progress for " + stall + ": killed\n" + output());
        }
      }
      return new Result(process.exitValue(), output(), resultsRoot);
    }

    private void kill() throws InterruptedException {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
    }

    // Reads what the run printed since the last call: a new line, or a line begun, is progress, unless it is a
    // progress line whose counts are the last one's.
    private boolean stalled(Duration stall) throws IOException {
      byte[] all = Files.readAllBytes(log);
      if (all.length > logRead) {
        // Latin-1 splits lines without splitting a character; the lines looked for are ASCII.
        String text = unfinishedLine + new String(all, logRead, all.length - logRead, StandardCharsets.ISO_8859_1);
        logRead = all.length;
        int end = text.lastIndexOf('\n');
        unfinishedLine = text.substring(end + 1);
        boolean progress = !unfinishedLine.isEmpty();
        for (String line : text.substring(0, end + 1).split("\n")) {
          if (line.startsWith(PROGRESS)) {
            String counts = counts(line);
            progress |= !counts.equals(lastCounts);
            lastCounts = counts;
          } else {
            progress |= !line.isBlank();
          }
        }
        if (progress) {
          lastProgressNanos = System.nanoTime();
        }
      }
      return System.nanoTime() - lastProgressNanos > stall.toNanos();
    }
  }

  /**
   * @param progressLine a run's progress line
   * @return its counts so far, without its rates and time left: the same as the last line's when nothing ended since
   */
  static String counts(String progressLine) {
    return NOT_COUNTS.matcher(progressLine).replaceAll("");
  }
}
