package couchbench.memcache.codec;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The key rule of the memcache text protocol: 1 to 250 bytes, no whitespace or control characters.
 * A key that breaks it would split the command line into other tokens, so it is never sent.
 */
public final class MemcacheKeys {

  /** memcached's KEY_MAX_LENGTH; MemcacheDB has the same limit. */
  public static final int MAX_KEY_BYTES = 250;

  /** The longest key sent base64-encoded: 186 bytes are 248 characters, 187 would be 252. */
  public static final int MAX_BASE64_KEY_BYTES = MAX_KEY_BYTES / 4 * 3;

  private MemcacheKeys() {}

  /**
   * Says what is wrong with a key, in a phrase that names no key so that failures group well.
   *
   * @param key the key to check
   * @return empty when the key may be sent, else e.g. "key longer than 250 bytes"
   */
  public static Optional<String> problem(String key) {
    if (key == null || key.isEmpty()) {
      return Optional.of("empty key");
    }
    if (isPrintableAscii(key)) {
      return Optional.empty(); // the usual key (md5 hex, names, numbers): one pass, nothing looked up
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        // An unpaired surrogate would be sent as '?' in UTF-8: a different key than the one asked for.
        return Optional.of("key is not valid Unicode text");
      } else if (Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)) {
        return Optional.of("key contains whitespace or control characters");
      }
    }
    if (key.length() > MAX_KEY_BYTES / 3 && key.getBytes(StandardCharsets.UTF_8).length > MAX_KEY_BYTES) {
      return Optional.of("key longer than " + MAX_KEY_BYTES + " bytes");
    }
    return Optional.empty();
  }

  /**
   * The key rule of a meta request: as {@link #problem}; with {@code b}, any text whose UTF-8 bytes base64-encode to
   * at most 250 characters (186 bytes: memcached 1.6 checks the length of the key as sent).
   *
   * @param key the key to check
   * @param base64 true when it is sent base64-encoded
   * @return empty when the key may be sent, else e.g. "key longer than 186 bytes (250 in base64)"
   */
  public static Optional<String> metaProblem(String key, boolean base64) {
    if (!base64 || key == null || key.isEmpty()) {
      return problem(key);
    }
    if (!StandardCharsets.UTF_8.newEncoder().canEncode(key)) {
      return Optional.of("key is not valid Unicode text");
    }
    if (key.getBytes(StandardCharsets.UTF_8).length > MAX_BASE64_KEY_BYTES) {
      return Optional.of("key longer than " + MAX_BASE64_KEY_BYTES + " bytes (" + MAX_KEY_BYTES + " in base64)");
    }
    return Optional.empty();
  }

  private static boolean isPrintableAscii(String key) {
    if (key.length() > MAX_KEY_BYTES) {
      return false;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c <= ' ' || c > '~') {
        return false;
      }
    }
    return true;
  }
}
