package couchbench.targets;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * What an action returned, and the lines it printed to stdout meanwhile.
 *
 * @param value what the action returned
 * @param lines what it printed, line by line
 * @param <T> the action's result
 */
record Printed<T>(T value, List<String> lines) {

  /** Runs action with stdout captured. */
  static <T> Printed<T> by(Supplier<T> action) {
    PrintStream original = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    T value;
    try {
      value = action.get();
    } finally {
      System.setOut(original);
    }
    return new Printed<>(value, buffer.toString(StandardCharsets.UTF_8).lines().toList());
  }

  /** @return the last line printed */
  String last() {
    return lines.get(lines.size() - 1);
  }
}
