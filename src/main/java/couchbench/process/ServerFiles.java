package couchbench.process;

import couchbench.startup.Console;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** A local server's files: its log, quoted in error messages, and its scratch, deleted when it stops. */
public final class ServerFiles {

  private ServerFiles() {}

  /** Deletes a file, or a directory and all it holds; nothing when it does not exist. */
  public static void delete(Path path) {
    if (!Files.exists(path)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(path)) {
      for (Path each : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(each);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + path, e);
    }
  }

  /** The line of a log that most likely says what went wrong: the first error line, else the last line. */
  public static String summary(Path log) {
    try {
      // Decoded leniently: a server's output may hold bytes that are not UTF-8, and this only quotes it.
      List<String> lines = new String(Files.readAllBytes(log), StandardCharsets.UTF_8).lines()
          .filter(line -> !line.isBlank()).toList();
      if (lines.isEmpty()) {
        return "no output";
      }
      return Console.quote(lines.stream().filter(line -> line.matches("(?i).*(error|fail|in use).*")).findFirst()
          .orElse(lines.get(lines.size() - 1)));
    } catch (IOException e) {
      return "no log";
    }
  }
}
