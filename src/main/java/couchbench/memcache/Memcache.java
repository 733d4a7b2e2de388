package couchbench.memcache;

import couchbench.memcache.internal.MemcacheActionSettings;
import couchbench.memcache.internal.MemcacheCommand;
import couchbench.memcache.internal.MemcacheCommand.Kind;
import io.gatling.javaapi.core.Session;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The second DSL step, {@code memcache("name")}: which command to send, of the text protocol or of memcached 1.6's
 * meta protocol ({@code meta...}). Each command but stats and metaNoop comes in two forms: its keys and values as Gatling EL strings ({@code "#{key}"}), or all as Java
 * functions of the session ({@code getMulti} is the function form of a get of several keys).
 * Values are sent as UTF-8.
 */
public final class Memcache {

  private final Function<Session, String> requestName;

  Memcache(Function<Session, String> requestName) {
    this.requestName = requestName;
  }

  /**
   * {@code set}: store the value.
   *
   * @param key EL key
   * @param value EL value
   * @return the action
   */
  public MemcacheActionBuilder set(String key, String value) {
    return set(El.string(key), El.string(value));
  }

  /**
   * {@code set}.
   *
   * @param key key function
   * @param value value function
   * @return the action
   */
  public MemcacheActionBuilder set(Function<Session, String> key, Function<Session, String> value) {
    return action(MemcacheCommand.store(Kind.SET, key, utf8(value)));
  }

  /**
   * {@code add}: store only if absent.
   *
   * @param key EL key
   * @param value EL value
   * @return the action
   */
  public MemcacheActionBuilder add(String key, String value) {
    return add(El.string(key), El.string(value));
  }

  /**
   * {@code add}.
   *
   * @param key key function
   * @param value value function
   * @return the action
   */
  public MemcacheActionBuilder add(Function<Session, String> key, Function<Session, String> value) {
    return action(MemcacheCommand.store(Kind.ADD, key, utf8(value)));
  }

  /**
   * {@code replace}: store only if present.
   *
   * @param key EL key
   * @param value EL value
   * @return the action
   */
  public MemcacheActionBuilder replace(String key, String value) {
    return replace(El.string(key), El.string(value));
  }

  /**
   * {@code replace}.
   *
   * @param key key function
   * @param value value function
   * @return the action
   */
  public MemcacheActionBuilder replace(Function<Session, String> key, Function<Session, String> value) {
    return action(MemcacheCommand.store(Kind.REPLACE, key, utf8(value)));
  }

  /**
   * {@code append} to a value.
   *
   * @param key EL key
   * @param value EL suffix
   * @return the action
   */
  public MemcacheActionBuilder append(String key, String value) {
    return append(El.string(key), El.string(value));
  }

  /**
   * {@code append}.
   *
   * @param key key function
   * @param value suffix function
   * @return the action
   */
  public MemcacheActionBuilder append(Function<Session, String> key, Function<Session, String> value) {
    return action(MemcacheCommand.store(Kind.APPEND, key, utf8(value)));
  }

  /**
   * {@code prepend} to a value.
   *
   * @param key EL key
   * @param value EL prefix
   * @return the action
   */
  public MemcacheActionBuilder prepend(String key, String value) {
    return prepend(El.string(key), El.string(value));
  }

  /**
   * {@code prepend}.
   *
   * @param key key function
   * @param value prefix function
   * @return the action
   */
  public MemcacheActionBuilder prepend(Function<Session, String> key, Function<Session, String> value) {
    return action(MemcacheCommand.store(Kind.PREPEND, key, utf8(value)));
  }

  /**
   * {@code cas}: store only if unchanged since a {@code gets} (memcached; not MemcacheDB).
   *
   * @param key EL key
   * @param value EL value
   * @param casUnique EL cas unique, e.g. saved by {@code casUnique().saveAs("cas")}
   * @return the action
   */
  public MemcacheActionBuilder cas(String key, String value, String casUnique) {
    return cas(El.string(key), El.string(value), El.number(casUnique));
  }

  /**
   * {@code cas}.
   *
   * @param key key function
   * @param value value function
   * @param casUnique cas unique function
   * @return the action
   */
  public MemcacheActionBuilder cas(Function<Session, String> key, Function<Session, String> value,
      Function<Session, Long> casUnique) {
    return action(MemcacheCommand.cas(key, utf8(value), casUnique));
  }

  /**
   * {@code get} of one key, or several in one request.
   *
   * @param keys EL keys
   * @return the action
   */
  public MemcacheActionBuilder get(String... keys) {
    return retrieve(Kind.GET, keys);
  }

  /**
   * {@code get} of one key.
   *
   * @param key key function
   * @return the action
   */
  public MemcacheActionBuilder get(Function<Session, String> key) {
    return action(MemcacheCommand.retrieve(Kind.GET, one(key)));
  }

  /**
   * {@code get} of several keys in one request, the keys a function of the session.
   *
   * @param keys a function of the session giving the keys, at least one
   * @return the action
   */
  public MemcacheActionBuilder getMulti(Function<Session, List<String>> keys) {
    return action(MemcacheCommand.retrieve(Kind.GET, keys));
  }

  /**
   * {@code gets}: get with cas uniques (memcached; not MemcacheDB).
   *
   * @param keys EL keys
   * @return the action
   */
  public MemcacheActionBuilder gets(String... keys) {
    return retrieve(Kind.GETS, keys);
  }

  /**
   * {@code gets} of one key.
   *
   * @param key key function
   * @return the action
   */
  public MemcacheActionBuilder gets(Function<Session, String> key) {
    return action(MemcacheCommand.retrieve(Kind.GETS, one(key)));
  }

  /**
   * {@code delete}.
   *
   * @param key EL key
   * @return the action
   */
  public MemcacheActionBuilder delete(String key) {
    return delete(El.string(key));
  }

  /**
   * {@code delete}.
   *
   * @param key key function
   * @return the action
   */
  public MemcacheActionBuilder delete(Function<Session, String> key) {
    return action(MemcacheCommand.delete(key));
  }

  /**
   * {@code incr}.
   *
   * @param key EL key
   * @param delta amount (unsigned 64-bit)
   * @return the action
   */
  public MemcacheActionBuilder incr(String key, long delta) {
    return incr(El.string(key), session -> delta);
  }

  /**
   * {@code incr}.
   *
   * @param key key function
   * @param delta amount function
   * @return the action
   */
  public MemcacheActionBuilder incr(Function<Session, String> key, Function<Session, Long> delta) {
    return action(MemcacheCommand.arithmetic(Kind.INCR, key, delta));
  }

  /**
   * {@code decr}.
   *
   * @param key EL key
   * @param delta amount (unsigned 64-bit)
   * @return the action
   */
  public MemcacheActionBuilder decr(String key, long delta) {
    return decr(El.string(key), session -> delta);
  }

  /**
   * {@code decr}.
   *
   * @param key key function
   * @param delta amount function
   * @return the action
   */
  public MemcacheActionBuilder decr(Function<Session, String> key, Function<Session, Long> delta) {
    return action(MemcacheCommand.arithmetic(Kind.DECR, key, delta));
  }

  /**
   * {@code touch} (memcached; not MemcacheDB).
   *
   * @param key EL key
   * @param exptime new expiry
   * @return the action
   */
  public MemcacheActionBuilder touch(String key, long exptime) {
    return touch(El.string(key), session -> exptime);
  }

  /**
   * {@code touch}.
   *
   * @param key key function
   * @param exptime expiry function
   * @return the action
   */
  public MemcacheActionBuilder touch(Function<Session, String> key, Function<Session, Long> exptime) {
    return action(MemcacheCommand.touch(key, exptime));
  }

  /**
   * {@code stats} of the first server.
   *
   * @return the action
   */
  public MemcacheActionBuilder stats() {
    return action(MemcacheCommand.stats());
  }

  /**
   * {@code mg}, meta get (memcached 1.6; not MemcacheDB): HD on a hit, EN on a miss; ask for what it returns with
   * {@link MemcacheActionBuilder#metaFlags}, e.g. {@code "v"} for the value (VA) and {@code "c"} for the cas.
   *
   * @param key EL key
   * @return the action
   */
  public MemcacheActionBuilder metaGet(String key) {
    return metaGet(El.string(key));
  }

  /**
   * {@code mg}.
   *
   * @param key key function
   * @return the action
   */
  public MemcacheActionBuilder metaGet(Function<Session, String> key) {
    return action(MemcacheCommand.meta(Kind.META_GET, key, null, null));
  }

  /**
   * {@code ms}, meta set: HD when stored; with {@code metaFlags("MA")} (or ME add, MP prepend, MR replace, MS set)
   * another mode, and {@link MemcacheActionBuilder#compareCas} a cas to compare.
   *
   * @param key EL key
   * @param value EL value
   * @return the action
   */
  public MemcacheActionBuilder metaSet(String key, String value) {
    return metaSet(El.string(key), El.string(value));
  }

  /**
   * {@code ms}.
   *
   * @param key key function
   * @param value value function
   * @return the action
   */
  public MemcacheActionBuilder metaSet(Function<Session, String> key, Function<Session, String> value) {
    return action(MemcacheCommand.meta(Kind.META_SET, key, utf8(value), null));
  }

  /**
   * {@code md}, meta delete: HD when deleted, NF when missing; {@code metaFlags("I")} marks it stale instead.
   *
   * @param key EL key
   * @return the action
   */
  public MemcacheActionBuilder metaDelete(String key) {
    return metaDelete(El.string(key));
  }

  /**
   * {@code md}.
   *
   * @param key key function
   * @return the action
   */
  public MemcacheActionBuilder metaDelete(Function<Session, String> key) {
    return action(MemcacheCommand.meta(Kind.META_DELETE, key, null, null));
  }

  /**
   * {@code ma}, meta arithmetic: increments by {@code D<delta>} (with {@code metaFlags("MD")} decrements); HD, or VA
   * with the new value given {@code metaFlags("v")}; {@code metaFlags("N0", "J10")} creates a missing counter at 10.
   *
   * @param key EL key
   * @param delta amount (unsigned 64-bit)
   * @return the action
   */
  public MemcacheActionBuilder metaArithmetic(String key, long delta) {
    return metaArithmetic(El.string(key), session -> delta);
  }

  /**
   * {@code ma}.
   *
   * @param key key function
   * @param delta amount function
   * @return the action
   */
  public MemcacheActionBuilder metaArithmetic(Function<Session, String> key, Function<Session, Long> delta) {
    return action(MemcacheCommand.meta(Kind.META_ARITHMETIC, key, null, delta));
  }

  /**
   * {@code me}, meta debug: ME with the item's internals as {@code name=value} pairs, EN on a miss.
   *
   * @param key EL key
   * @return the action
   */
  public MemcacheActionBuilder metaDebug(String key) {
    return metaDebug(El.string(key));
  }

  /**
   * {@code me}.
   *
   * @param key key function
   * @return the action
   */
  public MemcacheActionBuilder metaDebug(Function<Session, String> key) {
    return action(MemcacheCommand.meta(Kind.META_DEBUG, key, null, null));
  }

  /**
   * {@code mn}, meta no-op, to the first server: MN, once every reply before it is sent.
   *
   * @return the action
   */
  public MemcacheActionBuilder metaNoop() {
    return action(MemcacheCommand.meta(Kind.META_NOOP, null, null, null));
  }

  private static Function<Session, byte[]> utf8(Function<Session, String> value) {
    return session -> value.apply(session).getBytes(StandardCharsets.UTF_8);
  }

  private MemcacheActionBuilder retrieve(Kind kind, String... keys) {
    if (keys.length == 0) {
      throw new IllegalArgumentException(kind.name().toLowerCase() + " needs at least one key");
    }
    if (keys.length == 1) {
      return action(MemcacheCommand.retrieve(kind, one(El.string(keys[0]))));
    }
    List<Function<Session, String>> each = Arrays.stream(keys).map(El::string).toList();
    return action(MemcacheCommand.retrieve(kind, session -> {
      String[] resolved = new String[each.size()];
      for (int i = 0; i < resolved.length; i++) {
        resolved[i] = each.get(i).apply(session);
      }
      return List.of(resolved);
    }));
  }

  private static Function<Session, List<String>> one(Function<Session, String> key) {
    return session -> List.of(key.apply(session));
  }

  private MemcacheActionBuilder action(MemcacheCommand command) {
    return new MemcacheActionBuilder(MemcacheActionSettings.of(requestName, command));
  }
}
