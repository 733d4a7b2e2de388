package couchbench.couchdb;

import io.gatling.javaapi.core.Session;
import java.util.function.BiFunction;

/**
 * Checks whose extracted value is a verdict on a reply: the expected word (e.g. "all stored"), or
 * what is wrong with it (e.g. "1 of 4 results"). Gatling does not print the actual value of a body
 * check that fails, only "failed"; a verdict passed through {@link #expect} fails with its own
 * words instead, so the report groups failures by what went wrong.
 */
public final class Verdict {

  private Verdict() {}

  /**
   * For {@code .validate(...)}: passes the expected verdict, fails any other with the verdict as the message.
   *
   * @param expected the verdict of a good reply
   * @return the validator
   */
  public static BiFunction<String, Session, String> expect(String expected) {
    return (verdict, session) -> {
      if (!expected.equals(verdict)) {
        throw new IllegalStateException(verdict);
      }
      return verdict;
    };
  }
}
