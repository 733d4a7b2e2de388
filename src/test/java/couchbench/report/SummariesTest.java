package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SummariesTest {

  private static final String PROPERTY = "couchbench.reports";

  @TempDir
  Path root;
  private String before;

  @BeforeEach
  void pointResultsRootAtTheTempDir() {
    before = System.getProperty(PROPERTY);
    System.setProperty(PROPERTY, root.toString());
  }

  @AfterEach
  void restoreResultsRoot() {
    if (before == null) {
      System.clearProperty(PROPERTY);
    } else {
      System.setProperty(PROPERTY, before);
    }
  }

  @Test
  void shouldWriteTheSummaryIntoTheRunFolder() throws IOException {
    Instant started = Instant.now();
    Path run = Files.createDirectories(root.resolve("bulkinsert-20990101000000000"));
    Files.writeString(run.resolve("simulation.log"), "x");

    Optional<Path> html = Summaries.write("BulkInsert", started, SummaryPage.titled("t").line("hello"));

    assertEquals(Optional.of(run.resolve("summary.html")), html);
    assertTrue(Files.readString(run.resolve("summary.html")).contains("<p>hello</p>"));
  }

  @Test
  void shouldWriteNothingOutsideGatling() throws IOException {
    assertEquals(Optional.empty(), Summaries.write("BulkInsert", Instant.now(), SummaryPage.titled("t")));
    try (var files = Files.list(root)) {
      assertEquals(0, files.count());
    }
  }
}
