package couchbench.memcache.internal;

import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Everything one memcache action was told by the DSL.
 *
 * @param requestName the request's name in the report
 * @param command what to send
 * @param missOk true when a missing key is an acceptable outcome
 * @param checks the user's checks
 * @param depth requests sent at once each time the action runs, 1 or more (memtier's --pipeline within one user)
 * @param each what each of those requests is built and checked from: the user's session, as this turns it (a fresh
 *     key, say), at any depth; the identity unless the action is {@code pipelined}
 */
public record MemcacheActionSettings(
    Function<Session, String> requestName,
    MemcacheCommand command,
    boolean missOk,
    List<CheckBuilder> checks,
    int depth,
    Function<Session, Session> each) {

  /**
   * The most requests one pipelined action sends at once: couchbench's own cap, checked by {@link #withDepth}. The
   * memcache text protocol sets no such limit, and the number of users that share a connection has no cap.
   */
  public static final int MAX_DEPTH = 1024;

  /**
   * One request each time the action runs.
   *
   * @param requestName the request's name in the report
   * @param command what to send
   * @return the settings, with no checks and a missing key a failure
   */
  public static MemcacheActionSettings of(Function<Session, String> requestName, MemcacheCommand command) {
    return new MemcacheActionSettings(requestName, command, false, List.of(), 1, Function.identity());
  }

  /** @return these settings, a missing key acceptable */
  public MemcacheActionSettings withMissOk() {
    return new MemcacheActionSettings(requestName, command, true, checks, depth, each);
  }

  /**
   * @param more checks added after the ones there are
   * @return these settings with the checks
   */
  public MemcacheActionSettings withChecks(List<CheckBuilder> more) {
    List<CheckBuilder> all = new ArrayList<>(checks);
    all.addAll(more);
    return new MemcacheActionSettings(requestName, command, missOk, List.copyOf(all), depth, each);
  }

  /**
   * @param changed the command with changed options
   * @return these settings sending it
   */
  public MemcacheActionSettings withCommand(MemcacheCommand changed) {
    return new MemcacheActionSettings(requestName, changed, missOk, checks, depth, each);
  }

  /**
   * @param requests requests sent at once, 1 to {@link #MAX_DEPTH}
   * @param eachRequest what each request is built and checked from
   * @return these settings sending that many at once
   * @throws IllegalArgumentException when the depth is out of range
   */
  public MemcacheActionSettings withDepth(int requests, Function<Session, Session> eachRequest) {
    if (requests < 1 || requests > MAX_DEPTH) {
      throw new IllegalArgumentException("a pipelined action sends 1 to " + MAX_DEPTH + " requests at once, not "
          + requests);
    }
    return new MemcacheActionSettings(requestName, command, missOk, checks, requests, eachRequest);
  }

  /** @return false when a status check replaces the default expectation of the reply */
  boolean defaultExpectation() {
    return checks.stream().noneMatch(MemcacheChecks::isStatusCheck);
  }
}
