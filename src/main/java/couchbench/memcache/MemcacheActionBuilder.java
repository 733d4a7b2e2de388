package couchbench.memcache;

import couchbench.memcache.internal.MemcacheActionSettings;
import couchbench.memcache.internal.MemcacheActions;
import couchbench.memcache.internal.MemcacheCommand;
import couchbench.memcache.internal.MetaOptions;
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
   * The flags stored with the value (storage commands; metaSet's {@code F} token).
   *
   * @param flags opaque 32-bit flags
   * @return a new builder
   */
  public MemcacheActionBuilder flags(int flags) {
    requireStorage("flags");
    return with(settings.command().withFlags(flags));
  }

  /**
   * The expiry time stored with the value (storage commands, metaSet's {@code T} token; MemcacheDB ignores it).
   *
   * @param exptime seconds, or a Unix time; 0 for never
   * @return a new builder
   */
  public MemcacheActionBuilder exptime(long exptime) {
    requireStorage("exptime");
    return with(settings.command().withExptime(exptime));
  }

  /**
   * The expiry time stored with the value, drawn for each request, e.g. from its key.
   *
   * @param exptime seconds, or a Unix time, from the virtual user's session; 0 for never
   * @return a new builder
   */
  public MemcacheActionBuilder exptime(Function<Session, Long> exptime) {
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
      throw new IllegalArgumentException("noreply is not allowed for " + commandName()
          + ": its reply is the point of it" + (settings.command().meta() == null ? "" : "; see quiet()"));
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
   * its own there. Checks judge every reply; above a depth of 1, what they save is not kept, since the replies would
   * save over each other. At a depth of 1 this is the plain action with {@code each} applied first, in the same
   * Gatling action: a session hook before it would cost one more action per request.
   *
   * @param depth requests at once, 1 to 1024
   * @param each turns the user's session into the one a request is built from, e.g. by setting a fresh key
   * @return a new builder
   * @throws IllegalArgumentException when the depth is out of range
   */
  public MemcacheActionBuilder pipelined(int depth, Function<Session, Session> each) {
    return new MemcacheActionBuilder(settings.withDepth(depth, each));
  }

  /**
   * Meta flag tokens added to a meta command, e.g. {@code metaFlags("v", "c", "t")} for value, cas and TTL, or
   * {@code metaFlags("MA")} for an append; b, q and O come from {@link #base64Key}, {@link #quiet} and the connection.
   *
   * @param tokens one flag each, its letter then its token if it takes one
   * @return a new builder
   * @throws IllegalArgumentException for a token that is not a flag
   */
  public MemcacheActionBuilder metaFlags(String... tokens) {
    return with(settings.command().withMeta(meta("metaFlags").withMore(tokens)));
  }

  /**
   * Sends the key base64-encoded with the {@code b} flag (meta commands): any text of up to 186 UTF-8 bytes, spaces and
   * line ends included.
   *
   * @return a new builder
   */
  public MemcacheActionBuilder base64Key() {
    return with(settings.command().withMeta(meta("base64Key").withBase64Key()));
  }

  /**
   * Quiet mode, {@code q} (mg, ms, md, ma): the server leaves out the reply that means success (EN, a miss, for mg;
   * HD for the others, and ma's VA with it), and an {@code mn} after the request (after every request of one
   * connection in a {@link #pipelined} batch) closes the batch: its MN completes them. A pipelined batch then gets one
   * reply line where it got one per request.
   *
   * @return a new builder
   */
  public MemcacheActionBuilder quiet() {
    MetaOptions options = meta("quiet");
    if (!settings.command().kind().meta().tagged()) {
      throw new IllegalArgumentException("quiet applies to mg, ms, md and ma, not " + commandName());
    }
    return with(settings.command().withMeta(options.withQuiet()));
  }

  /**
   * Compares the item's cas before changing it, {@code C<cas>} (metaSet, metaDelete, metaArithmetic): EX when it
   * differs.
   *
   * @param cas EL cas, e.g. saved by {@code casUnique().saveAs("cas")} after a metaGet with the {@code c} flag
   * @return a new builder
   */
  public MemcacheActionBuilder compareCas(String cas) {
    return compareCas(El.number(cas));
  }

  /**
   * Compares the item's cas before changing it, {@code C<cas>}.
   *
   * @param cas cas function
   * @return a new builder
   */
  public MemcacheActionBuilder compareCas(Function<Session, Long> cas) {
    MetaOptions options = meta("compareCas");
    MemcacheCommand.Kind kind = settings.command().kind();
    if (kind != MemcacheCommand.Kind.META_SET && kind != MemcacheCommand.Kind.META_DELETE
        && kind != MemcacheCommand.Kind.META_ARITHMETIC) {
      throw new IllegalArgumentException("compareCas applies to ms, md and ma, not " + commandName());
    }
    return with(settings.command().withMeta(options.withCompareCas(cas)));
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
      throw new IllegalArgumentException(option + " only applies to storage commands, not " + commandName());
    }
  }

  private MetaOptions meta(String option) {
    if (settings.command().meta() == null) {
      throw new IllegalArgumentException(option + " only applies to meta commands, not " + commandName());
    }
    return settings.command().meta();
  }

  private String commandName() {
    MemcacheCommand.Kind kind = settings.command().kind();
    return kind.meta() == null ? kind.name().toLowerCase() : kind.meta().letters();
  }
}
