package couchbench.memcache.internal;

import couchbench.memcache.codec.MemcacheRequest;
import couchbench.memcache.codec.MemcacheRequest.StoreCommand;
import io.gatling.javaapi.core.Session;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Function;

/**
 * A memcache command as the DSL described it, with its parts still to be resolved against each
 * virtual user's session (Gatling EL strings and Java functions are both functions by now).
 *
 * @param kind which command
 * @param keys the keys, resolved together once per request: one or more (none for stats)
 * @param value the data block (storage commands), else null
 * @param number the cas unique (cas), delta (incr/decr) or exptime (touch), else null
 * @param flags flags stored with a value
 * @param exptime expiry time for storage commands
 * @param noreply true to ask the server not to reply
 */
public record MemcacheCommand(
    Kind kind,
    Function<Session, List<String>> keys,
    Function<Session, byte[]> value,
    Function<Session, Long> number,
    int flags,
    long exptime,
    boolean noreply) {

  /** The commands of the text protocol that couchbench sends. */
  public enum Kind {
    SET, ADD, REPLACE, APPEND, PREPEND, CAS, GET, GETS, DELETE, INCR, DECR, TOUCH, STATS;

    /** @return true for the commands that store a data block */
    public boolean stores() {
      return EnumSet.of(SET, ADD, REPLACE, APPEND, PREPEND, CAS).contains(this);
    }

    /** @return true for the commands whose reply may be skipped with noreply */
    public boolean allowsNoreply() {
      return EnumSet.of(SET, ADD, REPLACE, APPEND, PREPEND, DELETE, INCR, DECR, TOUCH).contains(this);
    }
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
      case SET, ADD, REPLACE, APPEND, PREPEND, CAS -> new MemcacheRequest.Store(
          StoreCommand.valueOf(kind.name()), key(session), flags, exptime, value.apply(session),
          kind == Kind.CAS ? number.apply(session) : 0, noreply);
    };
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
