package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheKeys;
import couchbench.targets.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A writer killed with SIGKILL while it records keys leaves the previous key file whole, and a part file whose keys
 * are exactly the first ones recorded, in order, as of its last flush.
 */
class KeyFileKillIT {

  private static final String PREVIOUS = "key\nkept-1\nkept-2\n";

  @Test
  void shouldKeepThePreviousFileWholeAndTheFlushedKeysReadableWhenKilled() throws Exception {
    Path folder = Files.createDirectories(Path.of("target", "it-keys", "kill-" + System.nanoTime()));
    Path file = Files.writeString(folder.resolve("keys.csv"), PREVIOUS);
    Process writer = ChildJvm.start(Map.of(), KeyFileWriterMain.class, file.toString());
    Path part = KeyFile.partFile(file, writer.pid());
    try {
      // Several flushes in: the kill falls between two of them, or in one.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!Files.exists(part) || Files.size(part) < 2_000_000) {
        assertTrue(writer.isAlive() && System.nanoTime() < deadline, "the writer wrote no 2 MB of keys");
        Thread.sleep(20);
      }
      writer.destroyForcibly(); // SIGKILL: no shutdown hook runs
      assertTrue(writer.waitFor(10, TimeUnit.SECONDS));

      assertEquals(PREVIOUS, Files.readString(file), "the previous key file, whole");
      List<String> keys = KeyFile.sample(part, "MemSet", MemcacheKeys::problem, Integer.MAX_VALUE).keys();
      assertTrue(keys.size() > 50_000, "the flushed keys: " + keys.size());
      for (int i = 0; i < keys.size(); i++) {
        assertEquals(String.format("%032d", i), keys.get(i), "key " + i + " of the part file");
      }
    } finally {
      writer.destroyForcibly();
    }
  }
}
