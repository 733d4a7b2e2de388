package couchbench.targets;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Starts a main class of the test classpath in a JVM of its own, to stop it the hard way or watch it exit. */
public final class ChildJvm {

  private ChildJvm() {}

  /** Starts main with the given system properties (name to value) and arguments; stdout and stderr merged. */
  public static Process start(Map<String, String> properties, Class<?> main, String... args) throws IOException {
    // Surefire and failsafe put the whole test classpath here; java.class.path may be just their booter jar.
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    properties.forEach((name, value) -> command.add("-D" + name + "=" + value));
    command.addAll(List.of("-cp", classpath, main.getName()));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }
}
