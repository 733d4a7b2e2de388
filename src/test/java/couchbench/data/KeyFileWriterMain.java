package couchbench.data;

import java.nio.file.Path;

/**
 * A JVM for KeyFileKillIT to kill while it records: keys {@code %032d} of 0, 1, 2, ... into the key file args[0],
 * without end, as fast as it can (as long as md5-hex keys, so that flushes fall anywhere in a line).
 */
public final class KeyFileWriterMain {

  private KeyFileWriterMain() {}

  public static void main(String[] args) {
    KeyFile keys = KeyFile.at(Path.of(args[0]));
    for (long i = 0; ; i++) {
      keys.record(String.format("%032d", i));
      if (i % 1000 == 0) {
        Thread.yield(); // let the flusher keep up, as the network does for a real run
      }
    }
  }
}
