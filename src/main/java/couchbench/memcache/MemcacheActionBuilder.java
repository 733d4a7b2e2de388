package couchbench.memcache;

import couchbench.memcache.internal.MemcacheActionSettings;
import couchbench.memcache.internal.MemcacheActions;
import couchbench.memcache.internal.MemcacheCommand;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;

/**
 * One memcache request in a scenario, with its options and checks. Immutable: every method returns
 * a new builder.
 */
public final class MemcacheActionBuilder implements ActionBuilder {

  private final MemcacheActionSettings settings;

  MemcacheActionBuilder(MemcacheActionSettings settings) {
    this.settings = settings;
  }

  /**
   * The flags stored with the value (storage commands).
   *
   * @param flags opaque 32-bit flags
   * @return a new builder
   */
  public MemcacheActionBuilder flags(int flags) {
    requireStorage("flags");
    return with(settings.command().withFlags(flags));
  }

  /**
   * The expiry time stored with the value (storage commands; MemcacheDB ignores it).
   *
   * @param exptime seconds, or a Unix time; 0 for never
   * @return a new builder
   */
  public MemcacheActionBuilder exptime(long exptime) {
    requireStorage("exptime");
    return with(settings.command().withExptime(exptime));
  }

  /**
   * Asks the server not to reply; the request counts as OK once written. Only for commands whose
   * reply can be left out without putting later replies out of step: set, add, replace, append,
   * prepend, delete, incr, decr, touch.
   *
   * @return a new builder
   */
  public MemcacheActionBuilder noreply() {
    if (!settings.command().kind().allowsNoreply()) {
      throw new IllegalArgumentException("noreply is not allowed for "
          + settings.command().kind().name().toLowerCase() + ": its reply is the point of it");
    }
    return with(settings.command().withNoreply());
  }

  /**
   * Makes a missing key (NOT_FOUND, or a get that finds nothing) an OK outcome, instead of a
   * failure: for reads of keys that may rightly be absent.
   *
   * @return a new builder
   */
  public MemcacheActionBuilder missOk() {
    return new MemcacheActionBuilder(settings.withMissOk());
  }

  /**
   * Adds checks: the memcache checks of {@link MemcacheDsl}, and Gatling's bodyString, bodyBytes,
   * bodyLength, substring and regex, which see the (first) value's data (empty when nothing was
   * found), the number of an incr or decr, else the reply's word (STORED, NOT_FOUND...). A
   * {@code memcacheStatus()} check replaces the default expectation (STORED, found, DELETED...).
   *
   * @param checks the checks
   * @return a new builder
   */
  public MemcacheActionBuilder check(CheckBuilder... checks) {
    return new MemcacheActionBuilder(settings.withChecks(List.of(checks)));
  }

  /**
   * Sends this many requests at once each time the action runs, as memtier's {@code --pipeline}: those for one
   * server leave in one write on its connection and are answered in order (a get of several keys, or stats, goes on
   * its own); each is timed, checked and reported on its own, and the user goes on when all are answered. Each
   * request is built from the user's session as {@code each} turns it, and checked against that: give each a key of
   * its own there. Checks judge every reply; what they save is not kept, since the replies would save over each other.
   *
   * @param depth requests at once, 1 to 1024
   * @param each turns the user's session into the one a request is built from, e.g. by setting a fresh key
   * @return a new builder
   * @throws IllegalArgumentException when the depth is out of range
   */
  public MemcacheActionBuilder pipelined(int depth, Function<Session, Session> each) {
    return new MemcacheActionBuilder(settings.withDepth(depth, each));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return MemcacheActions.of(settings);
  }

  private MemcacheActionBuilder with(MemcacheCommand command) {
    return new MemcacheActionBuilder(settings.withCommand(command));
  }

  private void requireStorage(String option) {
    if (!settings.command().kind().stores()) {
      throw new IllegalArgumentException(option + " only applies to storage commands, not "
          + settings.command().kind().name().toLowerCase());
    }
  }
}
