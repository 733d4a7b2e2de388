package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFoldersTest {

  private static final Instant STARTED = Instant.parse("2025-06-01T12:00:00Z");

  @TempDir
  Path root;

  @Test
  void shouldPickTheRunStampedNearestTheLoadStartNotANewerConcurrentOne() throws IOException {
    run("bulkinsert-20250601115958000", STARTED.plusSeconds(5));
    Path ours = run("bulkinsert-20250601120000004", STARTED.plusSeconds(5));
    run("bulkinsert-20250601120002000", STARTED.plusSeconds(3));

    assertEquals(Optional.of(ours), RunFolders.current(root, "BulkInsert", STARTED));
  }

  @Test
  void shouldAcceptAStampAMillisecondEarlierThanTheWallClockReadBeforeIt() throws IOException {
    Path ours = run("bulkinsert-20250601115959999", STARTED.plusSeconds(5));

    assertEquals(Optional.of(ours), RunFolders.current(root, "BulkInsert", STARTED));
  }

  @Test
  void shouldIgnoreOtherSimulationsFoldersWithoutALogAndOlderRuns() throws IOException {
    run("bulkinsert-20250601110000000", STARTED.minus(Duration.ofHours(1)));
    run("viewquery-20250601120009000", STARTED.plusSeconds(9));
    run("bulkinsertx-20250601120009000", STARTED.plusSeconds(9));
    run("bulkinsert-latest", STARTED.plusSeconds(9));
    run("bulkinsert-20259999999999999", STARTED.plusSeconds(9));
    Files.createDirectories(root.resolve("bulkinsert-20250601120008000"));
    Path current = run("bulkinsert-20250601120001000", STARTED.plusSeconds(1));

    assertEquals(Optional.of(current), RunFolders.current(root, "BulkInsert", STARTED));
  }

  @Test
  void shouldFindNothingOutsideGatling() throws IOException {
    run("bulkinsert-20250601110000000", STARTED.minus(Duration.ofHours(1)));

    assertEquals(Optional.empty(), RunFolders.current(root, "BulkInsert", STARTED));
    assertEquals(Optional.empty(), RunFolders.current(root.resolve("missing"), "BulkInsert", STARTED));
  }

  @Test
  void shouldTakeTheResultsRootFromASystemProperty() {
    String before = System.getProperty("couchbench.reports");
    try {
      System.clearProperty("couchbench.reports");
      assertEquals(Path.of("reports"), RunFolders.resultsRoot());
      System.setProperty("couchbench.reports", "target/elsewhere");
      assertEquals(Path.of("target/elsewhere"), RunFolders.resultsRoot());
    } finally {
      if (before == null) {
        System.clearProperty("couchbench.reports");
      } else {
        System.setProperty("couchbench.reports", before);
      }
    }
  }

  private Path run(String name, Instant logModified) throws IOException {
    Path folder = Files.createDirectories(root.resolve(name));
    Path log = Files.writeString(folder.resolve("simulation.log"), "x");
    Files.setLastModifiedTime(log, FileTime.from(logModified));
    return folder;
  }
}
