package couchbench.memcache.internal;

import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import couchbench.memcache.codec.MetaRequest;
import io.gatling.javaapi.core.Session;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;

/**
 * A memcache command as the DSL described it, with its parts still to be resolved against each
 * virtual user's session (Gatling EL strings and Java functions are both functions by now). Made
 * by a named factory per family of commands ({@link #store}, {@link #cas}, {@link #retrieve},
 * {@link #delete}, {@link #arithmetic}, {@link #touch}, {@link #stats}, {@link #meta}), its options set by the
 * withers; all of this happens once, when the scenario is built, not per request.
 *
 * @param kind which command
 * @param keys the keys, resolved together once per request: one or more (none for stats)
 * @param value the data block (storage commands), else null
 * @param number the cas unique (cas), delta (incr/decr, ma) or exptime (touch), else null
 * @param flags flags stored with a value
 * @param exptime expiry time for storage commands, per request
 * @param noreply true to ask the server not to reply
 * @param meta a meta command's flags and options, null for the others
 */
public record MemcacheCommand(
    Kind kind,
    Function<Session, List<String>> keys,
    Function<Session, byte[]> value,
    Function<Session, Long> number,
    int flags,
    Function<Session, Long> exptime,
    boolean noreply,
    MetaOptions meta) {

  /** The exptime of a value that does not expire. */
  private static final Function<Session, Long> NEVER = session -> 0L;

  /** The commands that couchbench sends: the text protocol's, then the meta protocol's (mg, ms, md, ma, me, mn). */
  public enum Kind {
    SET, ADD, REPLACE, APPEND, PREPEND, CAS, GET, GETS, DELETE, INCR, DECR, TOUCH, STATS,
    META_GET, META_SET, META_DELETE, META_ARITHMETIC, META_DEBUG, META_NOOP;

    /** @return true for the commands that store a data block */
    public boolean stores() {
      return EnumSet.of(SET, ADD, REPLACE, APPEND, PREPEND, CAS, META_SET).contains(this);
    }

    /** @return the meta command of a META_ kind, else null */
    public MetaRequest.Command meta() {
      return switch (this) {
        case META_GET -> MetaRequest.Command.GET;
        case META_SET -> MetaRequest.Command.SET;
        case META_DELETE -> MetaRequest.Command.DELETE;
        case META_ARITHMETIC -> MetaRequest.Command.ARITHMETIC;
        case META_DEBUG -> MetaRequest.Command.DEBUG;
        case META_NOOP -> MetaRequest.Command.NOOP;
        default -> null;
      };
    }

    /** @return true for the commands whose reply may be skipped with noreply */
    public boolean allowsNoreply() {
      return EnumSet.of(SET, ADD, REPLACE, APPEND, PREPEND, DELETE, INCR, DECR, TOUCH).contains(this);
    }
  }

  /**
   * {@code set}, {@code add}, {@code replace}, {@code append} or {@code prepend}; {@code cas} is
   * {@link #cas}.
   *
   * @param kind which storage command, not CAS
   * @param key the key
   * @param value the data block
   * @return the command, with flags 0, exptime 0 and a reply
   * @throws IllegalArgumentException for a kind that is not one of those
   */
  public static MemcacheCommand store(Kind kind, Function<Session, String> key, Function<Session, byte[]> value) {
    if (!kind.stores() || kind == Kind.CAS) {
      throw new IllegalArgumentException("not a storage command without cas: " + kind);
    }
    return new MemcacheCommand(kind, one(key), value, null, 0, NEVER, false, null);
  }

  /**
   * {@code cas}: store only if unchanged since the {@code gets} that gave the cas unique.
   *
   * @param key the key
   * @param value the data block
   * @param casUnique the cas unique
   * @return the command, with flags 0, exptime 0 and a reply
   */
  public static MemcacheCommand cas(Function<Session, String> key, Function<Session, byte[]> value,
      Function<Session, Long> casUnique) {
    return new MemcacheCommand(Kind.CAS, one(key), value, casUnique, 0, NEVER, false, null);
  }

  /**
   * {@code get} or {@code gets} of one or more keys in one request.
   *
   * @param kind GET or GETS
   * @param keys the keys, resolved together once per request; the request fails when they are none
   * @return the command
   * @throws IllegalArgumentException for a kind that is neither
   */
  public static MemcacheCommand retrieve(Kind kind, Function<Session, List<String>> keys) {
    if (kind != Kind.GET && kind != Kind.GETS) {
      throw new IllegalArgumentException("not a retrieval command: " + kind);
    }
    return new MemcacheCommand(kind, keys, null, null, 0, NEVER, false, null);
  }

  /**
   * {@code delete}.
   *
   * @param key the key
   * @return the command, with a reply
   */
  public static MemcacheCommand delete(Function<Session, String> key) {
    return new MemcacheCommand(Kind.DELETE, one(key), null, null, 0, NEVER, false, null);
  }

  /**
   * {@code incr} or {@code decr}.
   *
   * @param kind INCR or DECR
   * @param key the key
   * @param delta the amount, unsigned 64-bit
   * @return the command, with a reply
   * @throws IllegalArgumentException for a kind that is neither
   */
  public static MemcacheCommand arithmetic(Kind kind, Function<Session, String> key, Function<Session, Long> delta) {
    if (kind != Kind.INCR && kind != Kind.DECR) {
      throw new IllegalArgumentException("not incr or decr: " + kind);
    }
    return new MemcacheCommand(kind, one(key), null, delta, 0, NEVER, false, null);
  }

  /**
   * {@code touch}.
   *
   * @param key the key
   * @param exptime the new expiry time
   * @return the command, with a reply
   */
  public static MemcacheCommand touch(Function<Session, String> key, Function<Session, Long> exptime) {
    return new MemcacheCommand(Kind.TOUCH, one(key), null, exptime, 0, NEVER, false, null);
  }

  /**
   * {@code stats}, the general statistics.
   *
   * @return the command
   */
  public static MemcacheCommand stats() {
    return new MemcacheCommand(Kind.STATS, session -> List.of(), null, null, 0, NEVER, false, null);
  }

  /**
   * A meta command: mg, md, me or mn without data, ms with its data block (flags 0 and exptime 0 as {@code F0 T0},
   * which set's line has too), ma with its delta as {@code D<delta>}.
   *
   * @param kind a META_ kind
   * @param key the key; null for mn
   * @param value the data block of ms, else null
   * @param delta the delta of ma, else null
   * @return the command, its flag tokens none but ms's F and T
   * @throws IllegalArgumentException for a kind that is not a meta one
   */
  public static MemcacheCommand meta(Kind kind, Function<Session, String> key, Function<Session, byte[]> value,
      Function<Session, Long> delta) {
    if (kind.meta() == null) {
      throw new IllegalArgumentException("not a meta command: " + kind);
    }
    return new MemcacheCommand(kind, key == null ? session -> List.of() : one(key), value, delta, 0, NEVER, false,
        MetaOptions.of(kind == Kind.META_SET ? "F0 T0" : ""));
  }

  /**
   * @param flags the flags stored with the value
   * @return this command with those flags (ms: as its {@code F} token)
   */
  public MemcacheCommand withFlags(int flags) {
    return kind == Kind.META_SET ? withMeta(meta.withToken('F', Integer.toUnsignedString(flags)))
        : new MemcacheCommand(kind, keys, value, number, flags, exptime, noreply, meta);
  }

  /**
   * @param exptime the expiry time stored with the value
   * @return this command with that expiry time (ms: as its {@code T} token)
   */
  public MemcacheCommand withExptime(long exptime) {
    return kind == Kind.META_SET ? withMeta(meta.withToken('T', Long.toString(exptime)))
        : new MemcacheCommand(kind, keys, value, number, flags, session -> exptime, noreply, meta);
  }

  /**
   * @param exptime the expiry time stored with the value, per request
   * @return this command with that expiry time (ms: as its {@code T} token)
   */
  public MemcacheCommand withExptime(Function<Session, Long> exptime) {
    return kind == Kind.META_SET ? withMeta(meta.withTtl(exptime))
        : new MemcacheCommand(kind, keys, value, number, flags, exptime, noreply, meta);
  }

  /**
   * @param changed a meta command's changed options
   * @return this command with them
   */
  public MemcacheCommand withMeta(MetaOptions changed) {
    return new MemcacheCommand(kind, keys, value, number, flags, exptime, noreply, changed);
  }

  /** @return this command, the server asked not to reply */
  public MemcacheCommand withNoreply() {
    return new MemcacheCommand(kind, keys, value, number, flags, exptime, true, meta);
  }

  /**
   * The request for one session; a function that cannot be resolved (a missing session attribute)
   * throws, and the action reports that as a failed request.
   *
   * @param session the virtual user's session
   * @return the request to send
   */
  public MemcacheRequest resolve(Session session) {
    return switch (kind) {
      case GET, GETS -> new MemcacheRequest.Retrieve(kind == Kind.GETS, retrievedKeys(session));
      case DELETE -> new MemcacheRequest.Delete(key(session), noreply);
      case INCR, DECR -> new MemcacheRequest.Arithmetic(
          kind == Kind.INCR, key(session), number.apply(session), noreply);
      case TOUCH -> new MemcacheRequest.Touch(key(session), number.apply(session), noreply);
      case STATS -> new MemcacheRequest.Stats("");
      case META_GET, META_SET, META_DELETE, META_ARITHMETIC, META_DEBUG, META_NOOP -> meta.resolve(kind.meta(),
          kind == Kind.META_NOOP ? null : key(session), value == null ? null : value.apply(session), number, session);
      case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> new MemcacheRequest.Store(
          StoreCommand.valueOf(kind.name()), key(session), flags, exptime.apply(session), value.apply(session),
          kind == Kind.CAS ? number.apply(session) : 0, noreply);
    };
  }

  private static Function<Session, List<String>> one(Function<Session, String> key) {
    return session -> List.of(key.apply(session));
  }

  private String key(Session session) {
    return keys.apply(session).get(0);
  }

  // A function of the session may give no key, which the DSL cannot see when it builds the request.
  private List<String> retrievedKeys(Session session) {
    List<String> resolved = keys.apply(session);
    if (resolved.isEmpty()) {
      throw new IllegalArgumentException(kind.name().toLowerCase() + " needs at least one key, got none");
    }
    return resolved;
  }
}
