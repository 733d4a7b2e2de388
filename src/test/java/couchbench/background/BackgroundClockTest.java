package couchbench.background;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Background tasks are drawn on the run's seconds charts beside the load and the servers, whose times are on the run's
 * one clock (couchbench.startup.RunClock): a task stamped from the wall clock would be drawn off the load by any step
 * of the machine's clock during the run. Read from the compiled classes of couchbench.background.
 */
class BackgroundClockTest {

  @Test
  void shouldStampEveryTaskOnTheRunsClockNeverOnTheWallClock() {
    JavaClasses background = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("couchbench.background");

    noClasses().should().callMethod(System.class, "currentTimeMillis")
        .orShould().callMethod(Instant.class, "now")
        .because("a task's times go on the run's charts with the load's: RunClock.millis() for a moment,"
            + " System.nanoTime() for a deadline or a duration")
        .check(background);
  }
}
