package couchbench.data;

import io.gatling.javaapi.core.Session;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A CSV key file, header {@code key}, one key per line: the keys a write simulation saw the server
 * acknowledge, and only those, for a read simulation to read back. Written once at the end of the
 * run, atomically: a killed run leaves the previous file, never half of a new one.
 */
public final class KeyFile {

  /** The CSV header, also the feeder's attribute name. */
  public static final String HEADER = "key";

  /** A temporary file this old was left by a writer that was killed: the next write removes it. */
  static final Duration ABANDONED = Duration.ofHours(1);

  private final Path path;
  private final Set<String> keys = ConcurrentHashMap.newKeySet();

  private KeyFile(Path path) {
    this.path = path;
  }

  /**
   * An empty key file to fill during a run.
   *
   * @param path where it will be written
   * @return the key file
   */
  public static KeyFile at(Path path) {
    return new KeyFile(path);
  }

  /**
   * Records a key the server acknowledged; safe from any thread.
   *
   * @param key the key
   */
  public void record(String key) {
    keys.add(key);
  }

  /** @return the distinct keys recorded so far */
  public int size() {
    return keys.size();
  }

  /**
   * Writes the recorded keys: to a temporary file beside the target, then moved over it.
   *
   * @return the file written
   */
  public Path write() {
    try {
      Path folder = path.toAbsolutePath().getParent();
      Files.createDirectories(folder);
      removeAbandonedTemporaries(folder);
      Path temporary = Files.createTempFile(folder, path.getFileName().toString(), ".tmp");
      List<String> lines = new ArrayList<>(keys.size() + 1);
      lines.add(HEADER);
      lines.addAll(keys);
      Files.write(temporary, lines, StandardCharsets.UTF_8);
      return Files.move(temporary, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("could not write the key file " + path, e);
    }
  }

  /**
   * Removes the temporary files that writers of this key file killed mid-write left behind: those
   * older than {@link #ABANDONED}, which no live writer takes (a million keys take a second).
   */
  private void removeAbandonedTemporaries(Path folder) throws IOException {
    FileTime abandoned = FileTime.from(Instant.now().minus(ABANDONED));
    String prefix = path.getFileName().toString(); // not a glob: a file name may hold [ or *
    try (DirectoryStream<Path> temporaries = Files.newDirectoryStream(folder, candidate ->
        candidate.getFileName().toString().startsWith(prefix) && candidate.getFileName().toString().endsWith(".tmp"))) {
      for (Path temporary : temporaries) {
        if (Files.getLastModifiedTime(temporary).compareTo(abandoned) < 0) {
          Files.deleteIfExists(temporary);
        }
      }
    }
  }

  /**
   * Reads a key file written by a write simulation.
   *
   * @param path the file
   * @param writer the simulation that writes such files, named in the error
   * @param keyProblem what is wrong with a key for its reader, empty when it can be sent
   * @return the keys, at least one
   * @throws KeyFileException when the file is missing, unreadable, not a key file, empty, or holds
   *     a key the reader cannot send
   */
  public static List<String> read(Path path, String writer, Function<String, Optional<String>> keyProblem) {
    List<String> lines;
    try {
      lines = Files.readAllLines(path, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new KeyFileException("key file " + path + " does not exist: run " + writer
          + " first, which writes it, or point -DkeyFile at another key file");
    } catch (IOException e) {
      throw new KeyFileException("key file " + path + " cannot be read (" + e.getMessage() + ")");
    }
    if (lines.isEmpty() || !lines.get(0).strip().equals(HEADER)) {
      throw new KeyFileException("key file " + path + " does not start with the header line '"
          + HEADER + "': is it a key file written by " + writer + "?");
    }
    List<String> keys = new ArrayList<>();
    for (int i = 1; i < lines.size(); i++) {
      String key = lines.get(i);
      if (key.isEmpty()) {
        continue;
      }
      Optional<String> problem = keyProblem.apply(key);
      if (problem.isPresent()) {
        // Numbered as an editor numbers lines: blank lines count.
        throw new KeyFileException("key file " + path + " line " + (i + 1) + ": " + problem.get()
            + "; fix or regenerate the file with " + writer);
      }
      keys.add(key);
    }
    if (keys.isEmpty()) {
      throw new KeyFileException("key file " + path + " holds no keys: run " + writer
          + " (long enough for some writes to succeed) first");
    }
    return List.copyOf(keys);
  }

  /**
   * Draws a key at random, as seed 000's read scripts picked them, into the session under
   * {@link #HEADER}. It runs in the virtual user's own thread: a Gatling feeder would hand every
   * draw to its one feed actor and back, a thread switch per request that costs more than a
   * memcache get.
   *
   * @param keys the keys, at least one when the first key is drawn; a supplier, so that a read
   *     step can be built before the write step of the same run has produced them
   * @return the session step, for {@code exec}
   */
  public static Function<Session, Session> randomKey(Supplier<List<String>> keys) {
    return session -> {
      List<String> all = keys.get();
      return session.set(HEADER, all.get(ThreadLocalRandom.current().nextInt(all.size())));
    };
  }
}
