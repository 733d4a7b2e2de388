package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {

  private static final String PREVIOUS = "key\nold\n";

  @TempDir
  Path folder;

  @Test
  void shouldAppendKeysToThePartFileDuringTheRunAndLeaveThePreviousFileUntilTheEnd() throws Exception {
    Path file = Files.writeString(folder.resolve("keys.csv"), PREVIOUS);
    Path part = KeyFile.partFile(file, ProcessHandle.current().pid());
    KeyFile keys = KeyFile.at(file);
    keys.record("a1");
    keys.record("b2");

    assertEquals(List.of("key", "a1", "b2"), linesWithin(part, 3), "flushed during the run");
    assertEquals(PREVIOUS, Files.readString(file), "the previous file, until the run ends");
    keys.record("c3");
    Path written = keys.write();

    assertEquals(file, written);
    assertEquals(List.of("key", "a1", "b2", "c3"), Files.readAllLines(file));
    assertEquals(3, keys.size());
    assertEquals(List.of("a1", "b2", "c3"), read(file));
    try (Stream<Path> files = Files.list(folder)) {
      assertEquals(List.of(file), files.toList(), "the part file took the key file's name");
    }
  }

  @Test
  void shouldWriteOnlyTheHeaderWhenNoKeyWasRecorded() throws IOException {
    Path file = Files.writeString(folder.resolve("keys.csv"), PREVIOUS);

    KeyFile.at(file).write();

    assertEquals(List.of("key"), Files.readAllLines(file));
  }

  @Test
  void shouldDropACutLastLineWithOneNote() throws IOException {
    Path file = Files.writeString(folder.resolve("killed.csv"), "key\na1\n\nb2\nc3c3c");

    KeyFile.Keys keys = KeyFile.sample(file, "MemSet", MemcacheKeys::problem, KeyFile.SAMPLE);

    assertEquals(List.of("a1", "b2"), keys.keys());
    assertEquals("all 2 keys of " + file, keys.describe(), "what the summary states");
    assertEquals(List.of("key file " + file + ": its last line, line 5, was cut off (the run writing it was killed):"
        + " it is left out"), keys.notes());
  }

  @Test
  void shouldHoldAUniformSampleOfALargeFileAndSaySo() throws IOException {
    Path file = Files.write(folder.resolve("large.csv"),
        Stream.concat(Stream.of("key"), IntStream.range(0, 100).mapToObj(i -> "k" + i)).toList());
    int firstHalf = 0;
    int draws = 0;
    for (int round = 0; round < 2000; round++) {
      KeyFile.Keys keys = KeyFile.sample(file, "MemSet", MemcacheKeys::problem, 10);
      assertEquals(10, new HashSet<>(keys.keys()).size(), "10 distinct keys of the file");
      assertEquals(100, keys.total());
      firstHalf += (int) keys.keys().stream().filter(key -> Integer.parseInt(key.substring(1)) < 50).count();
      draws += keys.keys().size();
      if (round == 0) {
        assertEquals(List.of("key file " + file + ": 100 keys; reads draw from a random sample of 10 of them,"
            + " so that they need not all be held in memory"), keys.notes());
        assertEquals("a random sample of 10 of the 100 keys of " + file, keys.describe(), "what the summary states");
      }
    }
    // Half the keys are in the first half of the file: a sample biased to either end would miss by far more than 5%.
    assertEquals(0.5, (double) firstHalf / draws, 0.025, "share of the sample from the file's first half");
  }

  @Test
  void shouldRefuseUnusableFilesWithOneLineNamingTheFileAndTheFix() throws IOException {
    Path missing = folder.resolve("missing.csv");
    Path noHeader = Files.writeString(folder.resolve("no-header.csv"), "abc\ndef\n");
    Path binary = Files.write(folder.resolve("binary.csv"), new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
    Path empty = Files.writeString(folder.resolve("empty.csv"), "");
    Path headerOnly = Files.writeString(folder.resolve("header-only.csv"), "key\n\n");
    Path forbidden = Files.writeString(folder.resolve("forbidden.csv"), "key\nabc\n\nhas space\n");
    Path tooLong = Files.writeString(folder.resolve("too-long.csv"), "key\n" + "k".repeat(251) + "\n");
    Map<Path, String> refused = Map.of(
        missing, "key file " + missing + " does not exist: run MemSet first",
        noHeader, "key file " + noHeader + " does not start with the header line 'key'",
        binary, "key file " + binary + " cannot be read (",
        empty, "key file " + empty + " does not start with the header line 'key'",
        headerOnly, "key file " + headerOnly + " holds no keys: run MemSet",
        forbidden, "key file " + forbidden + " line 4: key contains whitespace or control characters; fix or",
        tooLong, "key file " + tooLong + " line 2: key longer than 250 bytes");
    refused.forEach((file, message) -> {
      KeyFileException e = assertThrows(KeyFileException.class, () -> read(file));
      assertTrue(e.getMessage().startsWith(message), e.getMessage());
      assertEquals(1, e.getMessage().lines().count(), e.getMessage());
    });
  }

  /** The file's lines once it has at least {@code count}, waiting up to 5 flush periods for them. */
  private static List<String> linesWithin(Path file, int count) throws Exception {
    long deadline = System.nanoTime() + 5 * KeyFile.FLUSH_MILLIS * 1_000_000;
    while (System.nanoTime() < deadline && (!Files.exists(file) || Files.readAllLines(file).size() < count)) {
      Thread.sleep(10);
    }
    return Files.exists(file) ? Files.readAllLines(file) : List.of();
  }

  private static List<String> read(Path file) {
    return KeyFile.read(file, "MemSet", MemcacheKeys::problem).keys();
  }
}
