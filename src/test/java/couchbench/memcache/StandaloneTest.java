package couchbench.memcache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** couchbench.memcache could be published as a Gatling plugin of its own: it imports nothing else of couchbench. */
class StandaloneTest {

  @Test
  void shouldImportNothingOfCouchbenchOutsideItsPackage() throws IOException {
    Path root = Path.of("src", "main", "java", "couchbench", "memcache");
    List<Path> sources;
    try (Stream<Path> files = Files.walk(root)) {
      sources = files.filter(file -> file.toString().endsWith(".java")).toList();
    }
    assertTrue(sources.size() > 20, "the package's sources: " + sources);
    List<String> offending = sources.stream()
        .flatMap(file -> lines(file).stream()
            .filter(line -> line.matches("import (static )?couchbench\\.(?!memcache\\.).*"))
            .map(line -> root.relativize(file) + ": " + line))
        .toList();
    assertEquals(List.of(), offending);
  }

  private static List<String> lines(Path file) {
    try {
      return Files.readAllLines(file);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
