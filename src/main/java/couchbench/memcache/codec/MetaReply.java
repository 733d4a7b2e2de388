package couchbench.memcache.codec;

import java.util.Optional;

/**
 * A reply of memcached's meta protocol: a two-letter code, the flags it returns (those asked for, the {@code O}
 * token, and W, X, Z when they apply), and for VA the data block.
 *
 * @param code the code
 * @param flags the returned flag tokens as the server sent them, single spaces apart, {@code ""} for none; for ME,
 *     the key and its {@code name=value} pairs
 * @param opaque the number of the {@code O} token, -1 when there is none
 * @param data the data block of VA, else null
 */
public record MetaReply(Code code, String flags, int opaque, byte[] data) implements MemcacheReply {

  /**
   * The codes: VA (a value follows), HD (done, no value), EN (miss), NS (not stored), EX (cas differs), NF (not
   * found), MN (the end of a batch, to mn), ME (me's debug line).
   */
  public enum Code {
    VA, HD, EN, NS, EX, NF, MN, ME
  }

  /**
   * One returned flag, e.g. {@code flag('c')} for the cas of {@code c123}.
   *
   * @param name the flag's letter
   * @return its token without the letter ({@code ""} for W, X, Z, b); empty when the reply does not have it
   */
  public Optional<String> flag(char name) {
    if (code == Code.ME) {
      return Optional.empty();
    }
    for (int start = 0; start < flags.length(); ) {
      int end = flags.indexOf(' ', start);
      end = end < 0 ? flags.length() : end;
      if (end > start && flags.charAt(start) == name) {
        return Optional.of(flags.substring(start + 1, end));
      }
      start = end + 1;
    }
    return Optional.empty();
  }
}
