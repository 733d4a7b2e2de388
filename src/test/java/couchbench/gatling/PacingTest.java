package couchbench.gatling;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.name;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.gatling.javaapi.core.CoreDsl;

/** One way to pace a load, and one threshold for a late start, in the compiled main classes. */
@AnalyzeClasses(packages = "couchbench", importOptions = ImportOption.DoNotIncludeTests.class)
class PacingTest {

  @ArchTest
  static final ArchRule every_paced_load_waits_for_its_intended_start = noClasses()
      .should().callMethodWhere(target(name("pace")).and(target(owner(type(CoreDsl.class)))))
      .because("a paced load waits with Pacing.untilIntendedStart for a schedule fixed from its start: Gatling's"
          + " pace() times each iteration from the last one's start, so a late one delays all after it unseen");

  @ArchTest
  static final ArchRule one_late_start_threshold = fields().that().haveName("LATE_NANOS")
      .should().beDeclaredIn(Pacing.class)
      .because("an operation is late by one threshold in every load: Pacing.LATE_NANOS");
}
