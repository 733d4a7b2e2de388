package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.memcache.codec.MemcacheKeys;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {

  @TempDir
  Path folder;

  @Test
  void shouldWriteExactlyTheRecordedKeysOnceEachAndReadThemBack() throws IOException {
    KeyFile keys = KeyFile.at(folder.resolve("keys.csv"));
    for (String key : List.of("a1", "b2", "a1", "c3")) {
      keys.record(key);
    }

    Path written = keys.write();

    List<String> lines = Files.readAllLines(written);
    assertEquals("key", lines.get(0));
    assertEquals(new HashSet<>(List.of("a1", "b2", "c3")), new HashSet<>(lines.subList(1, lines.size())));
    assertEquals(4, lines.size(), "each key once");
    assertEquals(new HashSet<>(List.of("a1", "b2", "c3")), new HashSet<>(read(written)));
  }

  @Test
  void shouldReplaceThePreviousFileAndLeaveNothingElseBeside() throws IOException {
    Path file = folder.resolve("keys.csv");
    Files.writeString(file, "key\nold\n");
    KeyFile keys = KeyFile.at(file);
    keys.record("new");

    keys.write();

    assertEquals(List.of("key", "new"), Files.readAllLines(file));
    try (Stream<Path> files = Files.list(folder)) {
      assertEquals(List.of(file), files.toList(), "no temporary file left");
    }
  }

  @Test
  void shouldRemoveWhatAKilledWriterLeftButNotWhatALiveOneWrites() throws IOException {
    Path file = folder.resolve("keys.csv");
    Path abandoned = Files.writeString(folder.resolve("keys.csv123.tmp"), "key\nhalf");
    Files.setLastModifiedTime(abandoned, FileTime.from(Instant.now().minus(KeyFile.ABANDONED).minusSeconds(60)));
    Path live = Files.writeString(folder.resolve("keys.csv456.tmp"), "key\nbeing written");
    Path other = Files.writeString(folder.resolve("other.csv789.tmp"), "another key file's");
    Files.setLastModifiedTime(other, FileTime.from(Instant.now().minus(KeyFile.ABANDONED).minusSeconds(60)));
    KeyFile keys = KeyFile.at(file);
    keys.record("k");

    keys.write();

    try (Stream<Path> files = Files.list(folder)) {
      assertEquals(new HashSet<>(List.of(file, live, other)), new HashSet<>(files.toList()));
    }
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

  private static List<String> read(Path file) {
    return KeyFile.read(file, "MemSet", MemcacheKeys::problem);
  }
}
