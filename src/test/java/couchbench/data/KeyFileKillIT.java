package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.targets.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** A run killed with SIGKILL while it writes its key file leaves the previous file whole. */
class KeyFileKillIT {

  private static final String PREVIOUS = "key\nkept-1\nkept-2\n";

  @Test
  void shouldLeaveThePreviousKeyFileWholeWhenKilledWhileWriting() throws Exception {
    Path folder = Files.createDirectories(Path.of("target", "it-keys", "kill-" + System.nanoTime()));
    Path file = Files.writeString(folder.resolve("keys.csv"), PREVIOUS);
    FileTime before = Files.getLastModifiedTime(file);
    // A million keys take a noticeable time to write: long enough to be caught in the middle.
    Process writer = ChildJvm.start(Map.of(), KeyFileWriterMain.class, file.toString(), "1000000");
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("writing", out.readLine());
      // The moment anything in the folder changes, the write has begun: kill it there.
      while (!changed(folder, file, before)) {
        assertTrue(writer.isAlive(), "the writer ended before the test saw its write begin");
        Thread.onSpinWait();
      }
      writer.destroyForcibly();
      assertTrue(writer.waitFor(10, TimeUnit.SECONDS));

      // Had the kill come after the write, the file would hold the new keys: this also fails then.
      assertEquals(PREVIOUS, Files.readString(file), "the previous key file, whole");
    } finally {
      writer.destroyForcibly();
    }
  }

  /** Whether the folder holds another file than the key file, or the key file was touched. */
  private static boolean changed(Path folder, Path file, FileTime before) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.anyMatch(other -> !other.equals(file))
          || !Files.getLastModifiedTime(file).equals(before) || Files.size(file) != PREVIOUS.length();
    }
  }
}
