package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunFoldersTest {

  @Test
  void shouldNameAFolderOfItsOwnAsGatlingNamesARunsInUtc() {
    Instant at = Instant.parse("2026-12-03T16:53:21.427Z");

    assertEquals("bulkinsert-couchbench-20261203165321427", RunFolders.ownName("BulkInsert", "couchbench", at));
    assertEquals("memset-merged-20261203165321427", RunFolders.ownName("MemSet", "merged", at));
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
}
