package couchbench.memcache.internal;

import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * Everything one memcache action was told by the DSL.
 *
 * @param requestName the request's name in the report
 * @param command what to send
 * @param missOk true when a missing key is an acceptable outcome
 * @param checks the user's checks
 */
public record MemcacheActionSettings(
    Function<Session, String> requestName,
    MemcacheCommand command,
    boolean missOk,
    List<CheckBuilder> checks) {

  /** @return false when a status check replaces the default expectation of the reply */
  boolean defaultExpectation() {
    return checks.stream().noneMatch(MemcacheChecks::isStatusCheck);
  }
}
