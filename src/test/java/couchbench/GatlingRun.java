package couchbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import couchbench.targets.ChildJvm;
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
import java.util.stream.Stream;

/**
 * Runs a simulation the way the Gatling Maven plugin does: a fresh JVM running Gatling's main class
 * with the test classpath, the plugin's --add-opens, and -D properties, -Dcouchbench.defaultPorts=false
 * among them unless the test says otherwise. Output goes to a log file.
 */
public final class GatlingRun {

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
   * Runs one simulation to its end, or kills it after {@code timeout}.
   *
   * @param simulation the simulation's class name, e.g. BulkInsert
   * @param properties -D properties for the run
   * @param timeout how long the run may take
   * @return the result
   */
  public static Result run(String simulation, Map<String, String> properties, Duration timeout)
      throws IOException, InterruptedException {
    return run(simulation, properties, Map.of(), timeout);
  }

  /**
   * Runs one simulation with extra environment variables (e.g. COUCHDB_PASSWORD).
   *
   * @param simulation the simulation's class name
   * @param properties -D properties for the run
   * @param environment variables added to the run's environment
   * @param timeout how long the run may take
   * @return the result
   */
  public static Result run(String simulation, Map<String, String> properties,
      Map<String, String> environment, Duration timeout) throws IOException, InterruptedException {
    return start(simulation, properties, environment).finish(timeout);
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
   * @param jvmOptions given after the default -Xmx512m, so that an -Xmx among them wins
   * @return the running simulation
   */
  public static Running start(String simulation, Map<String, String> properties,
      Map<String, String> environment, List<String> jvmOptions) throws IOException {
    Path resultsRoot =
        Files.createDirectories(Path.of("target", "it-runs"))
            .resolve(simulation.toLowerCase() + "-" + System.nanoTime())
            .toAbsolutePath();
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
    command.addAll(jvmOptions);
    command.add("-cp");
    // Failsafe puts the whole test classpath here; java.class.path may be just its booter jar.
    command.add(System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
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
    return new Running(simulation, builder.start(), log, resultsRoot);
  }

  /** A simulation whose JVM is still running. */
  public static final class Running {

    private final String simulation;
    private final Process process;
    private final Path log;
    private final Path resultsRoot;

    private Running(String simulation, Process process, Path log, Path resultsRoot) {
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
     * Waits until the run prints a line matching pattern, failing the test when it ends first or the
     * wait times out.
     *
     * @param pattern a regular expression for a whole line
     * @param timeout how long to wait
     * @return the first matching line
     */
    public String awaitLine(String pattern, Duration timeout) throws IOException, InterruptedException {
      long deadline = System.nanoTime() + timeout.toNanos();
      while (true) {
        Optional<String> line = output().lines().filter(l -> l.matches(pattern)).findFirst();
        if (line.isPresent()) {
          return line.get();
        }
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.descendants().forEach(ProcessHandle::destroyForcibly);
          process.destroyForcibly().waitFor();
          return fail(simulation + " printed no line like " + pattern + "\n" + output());
        }
        Thread.sleep(50);
      }
    }

    /**
     * Waits for the run to end, or kills it after timeout.
     *
     * @param timeout how long the run may still take
     * @return the result
     */
    public Result finish(Duration timeout) throws IOException, InterruptedException {
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly().waitFor();
        fail(simulation + " did not end within " + timeout + "\n" + output());
      }
      return new Result(process.exitValue(), output(), resultsRoot);
    }
  }
}
