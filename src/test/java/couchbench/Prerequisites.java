package couchbench;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when the machine lacks something it needs (a real CouchDB release, chromium, libfaketime): it
 * skips, saying what is missing and how to get it; where {@code -Dcouchbench.noSkips=true} (CI: .ci/run sets it, and
 * the pom gives the test JVMs Maven's property of that name), it fails instead, naming the same. One place decides,
 * for every such test: in CI a skipped test is a test that did not run, and must not pass unseen.
 */
public final class Prerequisites {

  /** The setting, a system property: true turns each skip for a missing prerequisite into a failure. */
  public static final String NO_SKIPS = "couchbench.noSkips";

  /**
   * Debian's libfaketime (package faketime), its build for threaded programs (the plain one hung a JVM once, in
   * Gatling's report): preloaded into a process, it steps that process's wall clock as a file says.
   */
  private static final Path LIBFAKETIME = Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1");

  private Prerequisites() {}

  /**
   * Debian's libfaketime, for a test that steps a run's wall clock; said, then skipped or failed, where it is missing.
   *
   * @param test the test class, named in the line
   * @return the library to preload
   */
  public static Path libfaketime(Class<?> test) {
    boolean installed = Files.isReadable(LIBFAKETIME);
    String missing = "no " + LIBFAKETIME + " to step the clock: apt-get install faketime (.ci/run installs it)";
    if (!installed) {
      sayMissing(test, missing);
    }
    require(installed, missing);
    return LIBFAKETIME;
  }

  /**
   * Says in one printed line that a test class lacks what it needs, since a skipped test is easy to miss in Maven's
   * output: "TEST: skipped, MISSING", or "TEST: fails, MISSING (-Dcouchbench.noSkips=true)".
   *
   * @param test the test class, named in the line
   * @param missing what is missing, with the fix
   */
  public static void sayMissing(Class<?> test, String missing) {
    System.out.println(test.getSimpleName() + (noSkips(System.getProperty(NO_SKIPS))
        ? ": fails, " + missing + " (-D" + NO_SKIPS + "=true)" : ": skipped, " + missing));
  }

  /**
   * Lets the calling test go on when what it needs is here; else skips it, or fails it where
   * {@code -Dcouchbench.noSkips=true}, with a message naming what is missing.
   *
   * @param present whether the prerequisite is here
   * @param missing what is missing, with the fix, e.g. "no chromium on the PATH: apt-get install chromium"
   */
  public static void require(boolean present, String missing) {
    require(present, missing, System.getProperty(NO_SKIPS));
  }

  /**
   * {@link #require(boolean, String)} with the setting given.
   *
   * @param present whether the prerequisite is here
   * @param missing what is missing, with the fix
   * @param setting the value of {@code couchbench.noSkips}: true, false, or null (unset, false)
   */
  static void require(boolean present, String missing, String setting) {
    boolean noSkips = noSkips(setting);
    if (present) {
      return;
    }
    if (noSkips) {
      Assertions.fail(missing + ": this test would skip, and -D" + NO_SKIPS
          + "=true (CI) fails it instead");
    }
    Assumptions.abort(missing);
  }

  /**
   * @param setting the value of {@code couchbench.noSkips}
   * @return whether a skip is a failure
   * @throws IllegalArgumentException for a value that is neither true nor false, which a typo would otherwise turn
   *     into false unseen
   */
  static boolean noSkips(String setting) {
    if (setting == null || setting.isEmpty() || setting.equals("false")) {
      return false;
    }
    if (setting.equals("true")) {
      return true;
    }
    throw new IllegalArgumentException("-D" + NO_SKIPS + "=" + setting + ": give true (a skip fails the test, as CI"
        + " wants) or false");
  }
}
