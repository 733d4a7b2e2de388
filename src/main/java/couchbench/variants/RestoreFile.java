package couchbench.variants;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.results.RunFolders;
import couchbench.startup.Console;
import couchbench.targets.CouchTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The settings a run of variants found on a server before it changed them, written under reports/ before the first
 * change and removed once they are restored: a run that was killed (kill -9, a machine that went down) leaves it, and
 * the next run against that server puts them back first ({@link #restoreIfLeft}).
 *
 * @param server the server's base URL
 * @param pid the process of the run of variants that wrote it
 * @param settings each setting's value before the run, node by node
 */
public record RestoreFile(String server, long pid, List<Original> settings) {

  /** The folder under the results root the files go to. */
  static final String FOLDER = ".variants-restore";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A setting's value on one node before the run.
   *
   * @param node the node, as {@code /_membership} names it
   * @param section its section
   * @param key its key
   * @param value its value; null when the node had none of its own (CouchDB's default applied)
   */
  public record Original(String node, String section, String key, String value) {

    ConfigKey configKey() {
      return new ConfigKey(section, key);
    }

    Optional<String> original() {
      return Optional.ofNullable(value);
    }
  }

  /**
   * @param server a server's base URL
   * @return where the restore file of that server goes
   */
  static Path path(String server) {
    return RunFolders.resultsRoot().resolve(FOLDER).resolve(server.replaceAll("[^A-Za-z0-9.]+", "-") + ".json");
  }

  /**
   * Writes the file, whole or not at all, readable by its owner alone: a setting's original may be the server's own
   * secret (Tenants' -Dauth=proxy takes [chttpd_auth] secret).
   */
  void write() {
    Path file = path(server);
    try {
      Files.createDirectories(file.getParent());
      Path written = file.resolveSibling(file.getFileName() + ".tmp");
      Files.deleteIfExists(written);
      Files.createFile(written, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      Files.writeString(written, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(this));
      Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new VariantsException("cannot write " + file + " (" + e.getMessage() + "), where the settings of " + server
          + " are kept until they are restored: nothing was changed; make reports/ writable");
    }
  }

  /** Removes the file: its settings are back. */
  void remove() {
    try {
      Files.deleteIfExists(path(server));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Puts back the settings a run of variants left changed on this server when it did not end (its restore file is
   * there, its process gone), saying so in one line. A run of variants still changing them stops this run: its load
   * would meet the other run's.
   *
   * @param target a server about to be loaded
   * @throws VariantsException when another run of variants is changing its settings now, or the file cannot be read
   */
  public static void restoreIfLeft(CouchTarget target) {
    Optional<RestoreFile> left = read(path(target.baseUrl()));
    if (left.isEmpty()) {
      return;
    }
    RestoreFile file = left.get();
    long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    if (file.pid == parent) {
      return; // a round of the run of variants that wrote it
    }
    if (ProcessHandle.of(file.pid).map(ProcessHandle::isAlive).orElse(false)) {
      throw new VariantsException("a run of variants (pid " + file.pid + ") is changing the settings of "
          + target.describe() + " now (" + path(target.baseUrl()) + "): run this when it has ended");
    }
    ServerConfig config = ServerConfig.of(target);
    file.settings.forEach(original -> config.set(original.node(), original.configKey(), original.original()));
    file.remove();
    Console.say("settings of " + target.describe() + " restored first, from " + path(target.baseUrl()) + ", left by a"
        + " run of variants that did not end (pid " + file.pid + "): " + file.settings.stream()
        .map(original -> original.configKey() + " on " + original.node() + " = " + original.configKey()
            .shown(original.original())).collect(Collectors.joining(", ")));
  }

  private static Optional<RestoreFile> read(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(JSON.readValue(file.toFile(), RestoreFile.class));
    } catch (JsonProcessingException e) {
      throw new VariantsException(file + " is not a restore file couchbench wrote (" + e.getOriginalMessage() + "):"
          + " restore the settings it names by hand, then remove it");
    } catch (IOException e) {
      throw new VariantsException("cannot read " + file + " (" + e.getMessage() + ")");
    }
  }
}
