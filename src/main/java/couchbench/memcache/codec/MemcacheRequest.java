package couchbench.memcache.codec;

import java.util.List;

/**
 * A request of the memcache text protocol (memcached's protocol.txt), as the encoder writes it; a
 * {@link MetaRequest} is one of the meta protocol's.
 * Keys are checked by {@link MemcacheKeys} before a request is built into bytes.
 */
public sealed interface MemcacheRequest
    permits MemcacheRequest.Store,
        MemcacheRequest.Retrieve,
        MemcacheRequest.Delete,
        MemcacheRequest.Arithmetic,
        MemcacheRequest.Touch,
        MemcacheRequest.Stats,
        MetaRequest {

  /** @return the keys this request names, in order; empty for stats */
  List<String> keys();

  /** @return true when the server is asked not to reply ({@code noreply}) */
  boolean noreply();

  /** The storage commands. */
  enum StoreCommand {
    SET, ADD, REPLACE, APPEND, PREPEND, CAS
  }

  /**
   * {@code <command> <key> <flags> <exptime> <bytes> [<cas unique>] [noreply]} then the data block.
   *
   * @param command which storage command
   * @param key the key
   * @param flags opaque 32-bit flags stored with the value
   * @param exptime expiry time (0 never; MemcacheDB ignores it)
   * @param value the data block
   * @param casUnique the cas unique, for CAS only (ignored otherwise)
   * @param noreply true to ask for no reply
   */
  record Store(
      StoreCommand command, String key, int flags, long exptime, byte[] value, long casUnique,
      boolean noreply) implements MemcacheRequest {
    @Override
    public List<String> keys() {
      return List.of(key);
    }
  }

  /**
   * {@code get <key>*} or {@code gets <key>*}.
   *
   * @param withCas true for gets (values carry their cas unique)
   * @param keys one or more keys
   */
  record Retrieve(boolean withCas, List<String> keys) implements MemcacheRequest {
    @Override
    public boolean noreply() {
      return false;
    }
  }

  /**
   * {@code delete <key> [noreply]}.
   *
   * @param key the key
   * @param noreply true to ask for no reply
   */
  record Delete(String key, boolean noreply) implements MemcacheRequest {
    @Override
    public List<String> keys() {
      return List.of(key);
    }
  }

  /**
   * {@code incr|decr <key> <value> [noreply]}; the delta is an unsigned 64-bit number.
   *
   * @param increment true for incr, false for decr
   * @param key the key
   * @param delta the amount, unsigned
   * @param noreply true to ask for no reply
   */
  record Arithmetic(boolean increment, String key, long delta, boolean noreply)
      implements MemcacheRequest {
    @Override
    public List<String> keys() {
      return List.of(key);
    }
  }

  /**
   * {@code touch <key> <exptime> [noreply]} (memcached only; MemcacheDB answers ERROR).
   *
   * @param key the key
   * @param exptime the new expiry time
   * @param noreply true to ask for no reply
   */
  record Touch(String key, long exptime, boolean noreply) implements MemcacheRequest {
    @Override
    public List<String> keys() {
      return List.of(key);
    }
  }

  /**
   * {@code stats [<group>]}.
   *
   * @param group empty for general stats, else e.g. "items" or "slabs"
   */
  record Stats(String group) implements MemcacheRequest {
    @Override
    public List<String> keys() {
      return List.of();
    }

    @Override
    public boolean noreply() {
      return false;
    }
  }
}
