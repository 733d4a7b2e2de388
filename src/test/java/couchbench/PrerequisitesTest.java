package couchbench;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PrerequisitesTest {

  private static final String MISSING = "no chromium on the PATH: apt-get install chromium";

  @Test
  void shouldSkipNamingWhatIsMissingWhenTheSettingIsOffOrUnset() {
    for (String off : new String[] {null, "", "false"}) {
      TestAbortedException skipped = assertThrows(TestAbortedException.class,
          () -> Prerequisites.require(false, MISSING, off), "setting " + off);
      assertTrue(skipped.getMessage().contains(MISSING), skipped.getMessage());
    }
  }

  @Test
  void shouldFailNamingWhatIsMissingAndTheSettingWhenTheSettingIsOn() {
    AssertionFailedError failed = assertThrows(AssertionFailedError.class,
        () -> Prerequisites.require(false, MISSING, "true"));
    assertEquals(MISSING + ": this test would skip, and -Dcouchbench.noSkips=true (CI) fails it instead",
        failed.getMessage());
  }

  @Test
  void shouldLetTheTestGoOnWhenThePrerequisiteIsHereWhateverTheSetting() {
    for (String setting : new String[] {null, "false", "true"}) {
      assertDoesNotThrow(() -> Prerequisites.require(true, MISSING, setting), "setting " + setting);
    }
  }

  @Test
  void shouldRefuseASettingThatIsNeitherTrueNorFalse() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
        () -> Prerequisites.require(true, MISSING, "yes"));
    assertEquals("-Dcouchbench.noSkips=yes: give true (a skip fails the test, as CI wants) or false",
        refused.getMessage());
  }

  @Test
  void shouldBeGivenTheSettingByThePom() {
    // The pom passes Maven's property to the test JVMs (false unless -Dcouchbench.noSkips=true or CI=true): unset here,
    // the setting would be lost on its way to the tests, and CI's skips would pass.
    assertNotNull(System.getProperty(Prerequisites.NO_SKIPS), "the pom gives the test JVMs " + Prerequisites.NO_SKIPS);
  }
}
