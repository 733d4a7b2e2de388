package couchbench.results;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Points -Dcouchbench.reports (the results root) at a fresh folder for each test, and puts it back after. */
final class ResultsRootInTempDir implements BeforeEachCallback, AfterEachCallback {

  private static final String PROPERTY = "couchbench.reports";

  private Path root;
  private String before;

  /** @return this test's results root */
  Path root() {
    return root;
  }

  @Override
  public void beforeEach(ExtensionContext context) throws IOException {
    root = Files.createTempDirectory("couchbench-reports-");
    before = System.getProperty(PROPERTY);
    System.setProperty(PROPERTY, root.toString());
  }

  @Override
  public void afterEach(ExtensionContext context) throws IOException {
    if (before == null) {
      System.clearProperty(PROPERTY);
    } else {
      System.setProperty(PROPERTY, before);
    }
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(file -> {
        try {
          Files.delete(file);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }
}
