package couchbench.variants;

import couchbench.rounds.Rounds;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs one round of one variant as a run of its own: a JVM started as this one was (its JVM options, its classpath,
 * Gatling's main class), the simulation with one round and the variant's properties. A JVM per round makes every round
 * start alike: no variant runs on a JIT, a heap or connections another variant warmed.
 */
final class RoundRunner {

  /** The line a run ends with that names its page: its folder is the round's run folder. */
  private static final Pattern SUMMARY = Pattern.compile("^couchbench: summary: (.*)/summary\\.html$");

  /** The properties of the run of variants that its rounds are not given: each round is one run of one variant. */
  private static final Set<String> NOT_PASSED = Set.of(VariantPlan.PARAMETER, Rounds.PARAMETER, "regression");

  private final String simulation;
  private final List<String> jvmOptions;
  private final String classpath;
  private final Path resultsRoot;
  private volatile Process running;

  RoundRunner(String simulation, List<String> jvmOptions, String classpath, Path resultsRoot) {
    this.simulation = simulation;
    this.jvmOptions = jvmOptions;
    this.classpath = classpath;
    this.resultsRoot = resultsRoot;
  }

  /**
   * @param simulation the simulation's class name
   * @param resultsRoot where Gatling writes its runs
   * @return a runner of rounds started as this JVM was
   */
  static RoundRunner likeThisJvm(String simulation, Path resultsRoot) {
    return new RoundRunner(simulation, ManagementFactory.getRuntimeMXBean().getInputArguments(),
        System.getProperty("java.class.path"), resultsRoot);
  }

  /**
   * @param variant the variant
   * @param properties the properties of its round: the variant's, and what tells the round's results apart
   * @return the command of its run
   */
  List<String> command(Variant variant, Map<String, String> properties) {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString()));
    for (String option : jvmOptions) {
      String name = option.startsWith("-D") ? option.substring(2).split("=", 2)[0] : null;
      if (name == null || !(NOT_PASSED.contains(name) || properties.containsKey(name))) {
        command.add(option);
      }
    }
    properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
    command.addAll(List.of("-cp", classpath, "io.gatling.app.Gatling", "--simulation", simulation,
        "--results-folder", resultsRoot.toAbsolutePath().toString()));
    return command;
  }

  /**
   * Runs the round, its output passed on to this JVM's as it comes.
   *
   * @param variant the variant
   * @param properties see {@link #command}
   * @return the round's run folder
   * @throws VariantsException when the round ends otherwise than with 0, or names no page
   */
  Path run(Variant variant, Map<String, String> properties) {
    Process process;
    try {
      process = new ProcessBuilder(command(variant, properties)).redirectErrorStream(true).start();
    } catch (IOException e) {
      throw new VariantsException("cannot start a round of variant " + variant.name() + ": " + e.getMessage());
    }
    running = process;
    try {
      Optional<Path> folder = passOn(process.getInputStream(), System.out);
      int exit = process.waitFor();
      if (exit != 0 || folder.isEmpty()) {
        throw new VariantsException("a round of variant " + variant.name() + " ended with exit code " + exit
            + folder.map(path -> " (its run: " + path + ")").orElse(", without a page")
            + ": its output is above; the rounds after it were not run");
      }
      return folder.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new VariantsException("interrupted during a round of variant " + variant.name());
    } finally {
      running = null;
    }
  }

  /** Ends the round running now, if any: the run of variants is stopping. */
  void stop() {
    Process process = running;
    if (process != null) {
      process.destroy();
      try {
        process.waitFor();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  // As it comes, not line by line, so that a line still without its end (a progress line) shows when it is written;
  // the lines are kept as bytes until their end, so that a character split between two reads is read whole.
  private static Optional<Path> passOn(InputStream from, OutputStream to) {
    Optional<Path> folder = Optional.empty();
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int read = from.read(buffer); read >= 0; read = from.read(buffer)) {
        to.write(buffer, 0, read);
        to.flush();
        for (int i = 0; i < read; i++) {
          if (buffer[i] != '\n') {
            line.write(buffer[i]);
            continue;
          }
          Matcher summary = SUMMARY.matcher(line.toString(StandardCharsets.UTF_8).strip());
          if (summary.matches()) {
            folder = Optional.of(Path.of(summary.group(1)));
          }
          line.reset();
        }
      }
    } catch (IOException e) {
      // the round's JVM ended; its exit code says how
    }
    return folder;
  }
}
