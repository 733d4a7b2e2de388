package couchbench.process;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** Finds programs on a search path, so that a missing one is reported before anything is started. */
public final class Executables {

  private Executables() {}

  /** @return this JVM's PATH, empty when unset */
  public static String systemPath() {
    return Objects.requireNonNullElse(System.getenv("PATH"), "");
  }

  /** @return the first executable file called name in the directories of searchPath */
  public static Optional<Path> find(String name, String searchPath) {
    for (String directory : searchPath.split(File.pathSeparator)) {
      if (directory.isEmpty()) {
        continue;
      }
      try {
        Path candidate = Path.of(directory, name);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate.toAbsolutePath());
        }
      } catch (InvalidPathException e) {
        // a malformed PATH entry cannot hold the program: look further
      }
    }
    return Optional.empty();
  }

  /** @return whether this process runs as root, which memcached refuses unless told a user to run as */
  public static boolean runningAsRoot() {
    try {
      return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    } catch (Exception e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }
}
