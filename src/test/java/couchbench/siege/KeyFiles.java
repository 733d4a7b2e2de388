package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;

/** The key files of the siege ITs: where they go, and what a written one must look like. */
final class KeyFiles {

  private static final Path ROOT = Path.of("target", "it-keys");

  private KeyFiles() {}

  /**
   * A key file path no run has used yet, under target/it-keys.
   *
   * @param name what it is for, e.g. "couchdb"
   * @return the path; its folder exists, the file does not
   */
  static Path fresh(String name) throws IOException {
    return Files.createDirectories(ROOT).resolve(name + "-" + System.nanoTime() + ".csv");
  }

  /**
   * A new empty folder under target/it-keys, for a run that writes several key files.
   *
   * @param name what it is for, e.g. "vs"
   * @return the folder
   */
  static Path freshFolder(String name) throws IOException {
    return Files.createDirectories(ROOT.resolve(name + "-" + System.nanoTime()));
  }

  /**
   * Reads a key file a run wrote, checking its header and that no key is there twice.
   *
   * @param keyFile the file
   * @return its keys
   */
  static List<String> written(Path keyFile) throws IOException {
    List<String> lines = Files.readAllLines(keyFile);
    assertEquals("key", lines.get(0), keyFile + " header");
    List<String> keys = lines.subList(1, lines.size());
    assertEquals(keys.size(), new HashSet<>(keys).size(), "no key twice in " + keyFile);
    return keys;
  }
}
