package couchbench.versus;

import couchbench.data.KeyFile;
import couchbench.data.KeyFileException;
import couchbench.startup.Console;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A write step's key file, handed to the read step of the same run: written when the write phase
 * ends, then read back with the same checks MemGet and CouchGet apply to theirs, so the read step
 * reads exactly what a later MemGet or CouchGet run would.
 */
public final class KeyHandoff {

  private final String step;
  private final KeyFile written;
  private final Function<Path, KeyFile.Keys> reader;
  private volatile Optional<KeyFile.Keys> read = Optional.empty();
  private volatile boolean handedOver;

  /**
   * @param step the write step, named in messages
   * @param written the key file the write step fills
   * @param reader reads and checks a key file, as the read simulation does
   */
  KeyHandoff(String step, KeyFile written, Function<Path, KeyFile.Keys> reader) {
    this.step = step;
    this.written = written;
    this.reader = reader;
  }

  /** @return the key file being filled by the write step */
  public KeyFile written() {
    return written;
  }

  /**
   * Records a key the write step's server acknowledged.
   *
   * @param key the key
   */
  public void record(String key) {
    written.record(key);
  }

  /**
   * Writes the key file and reads it back; once.
   *
   * @throws KeyFileException when the file cannot be used (no key acknowledged): the read step would have nothing to
   *     read
   */
  synchronized void handOver() {
    if (handedOver) {
      return;
    }
    handedOver = true;
    Path file = written.write();
    if (written.size() == 0) {
      throw new KeyFileException(step + " acknowledged no key (" + file + ")");
    }
    KeyFile.Keys keys = reader.apply(file);
    read = Optional.of(keys);
    Console.say("key file: " + keys.total() + " keys acknowledged by " + step + ", in " + file);
  }

  /** Writes the key file if the run ended before the write phase did; the read step never came. */
  void writeIfNotHandedOver() {
    if (!handedOver) {
      Console.say("key file: " + written.size() + " keys acknowledged by " + step + ", in " + written.write());
    }
  }

  /** @return the keys read back, empty before the handover or when the file was unusable */
  public List<String> keys() {
    return read.map(KeyFile.Keys::keys).orElse(List.of());
  }

  /** @return e.g. "memcache set: all 1,200 keys of data/keys/memcache.csv"; empty when nothing was read back */
  Optional<String> describeRead() {
    return read.map(keys -> step + ": " + keys.describe());
  }
}
