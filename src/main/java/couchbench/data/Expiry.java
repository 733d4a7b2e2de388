package couchbench.data;

import couchbench.startup.SettingsException;
import java.util.OptionalLong;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * -Dexpiry: how long a memcache value lives, none ({@code 0}, the default), one time ({@code 60}) or a time drawn
 * uniformly from a range ({@code 60-300}), in seconds, as memtier's --expiry-range. A key written with an expiry
 * carries its expiry time, {@code <key>-x<Unix seconds>}: a reader of the key file knows when each key expires by
 * design, and tells a value expired as planned from one lost.
 *
 * @param low the shortest life, seconds; 0 with {@code high} 0 for none
 * @param high the longest life, seconds
 */
public record Expiry(int low, int high) {

  /** No expiry: values live until evicted, as memcache stores them by default. */
  public static final Expiry NONE = new Expiry(0, 0);

  /** memcached reads an exptime above 30 days as a Unix time, not as seconds from now. */
  static final int MAX_SECONDS = 30 * 24 * 3600;

  /**
   * A read within this long before a key's expiry time, or {@link #SETTLED_AFTER_MILLIS} after it, may find it or not: the
   * server's clock ticks in whole seconds and may lag the client's by one. Client and server must share a clock (one
   * machine, or hosts kept in step by NTP) within that.
   */
  static final long UNSETTLED_BEFORE_MILLIS = 1000;

  /** See {@link #UNSETTLED_BEFORE_MILLIS}. */
  static final long SETTLED_AFTER_MILLIS = 2000;

  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(?:-(\\d{1,9}))?");

  // A stamp ends a key: "-x" then a Unix time of 9 to 11 digits.
  private static final String STAMP = "-x";
  private static final int STAMP_DIGITS_MIN = 9;
  private static final int STAMP_DIGITS_MAX = 11;

  /** What a key's expiry means for a read now. */
  public enum State {
    /** No expiry, or not yet near it: the value must be there. */
    LIVE,
    /** Within a second or two of its expiry time: the server may have it or not. */
    UNSETTLED,
    /** Past its expiry time by more than the servers' clocks can differ: the value must be gone. */
    EXPIRED
  }

  /**
   * @param given -Dexpiry's value
   * @return the expiry
   * @throws SettingsException naming the value and its forms, a range whose low end is above its high end, or a time
   *     memcached would read as a date
   */
  public static Expiry parse(String given) {
    return parse("expiry", given);
  }

  /**
   * @param property the run parameter that gives it, without -D, e.g. "ttl"
   * @param given its value
   * @return the expiry
   * @throws SettingsException as {@link #parse(String)}, naming that parameter
   */
  public static Expiry parse(String property, String given) {
    String asGiven = "-D" + property + "=" + given;
    Matcher form = FORM.matcher(given.strip());
    if (!form.matches()) {
      throw new SettingsException(asGiven + " does not parse: give seconds (60), a range drawn uniformly (60-300), or 0"
          + " for none");
    }
    int low = Integer.parseInt(form.group(1));
    int high = form.group(2) == null ? low : Integer.parseInt(form.group(2));
    if (low > high) {
      throw new SettingsException(asGiven + ": the low end is above the high end: give -D" + property + "=" + high + "-"
          + low);
    }
    if (high > MAX_SECONDS) {
      throw new SettingsException(asGiven + ": memcached reads more than " + MAX_SECONDS + " seconds (30 days) as a"
          + " date: give at most " + MAX_SECONDS);
    }
    if (low == 0 && high > 0) {
      throw new SettingsException(asGiven + ": an expiry of 0 means none, not now: give a range from 1 s");
    }
    return new Expiry(low, high);
  }

  /** @return whether values expire at all */
  public boolean expires() {
    return high > 0;
  }

  /**
   * @param key a new key
   * @param nowMillis the time it is written, Unix milliseconds
   * @return the key as written: with its expiry time, a life drawn from this expiry; as given without expiry
   */
  public String stamp(String key, long nowMillis) {
    if (!expires()) {
      return key;
    }
    int life = low == high ? low : ThreadLocalRandom.current().nextInt(low, high + 1);
    return key + "-x" + (nowMillis / 1000 + life);
  }

  /**
   * Read on every get of an expiring key, so by hand rather than by a pattern: no allocation.
   *
   * @param key a key as written
   * @return its expiry time in Unix seconds; empty for a key written without one
   */
  public static OptionalLong expiresAt(String key) {
    int stamp = key.lastIndexOf(STAMP);
    int digits = key.length() - stamp - STAMP.length();
    if (stamp < 0 || digits < STAMP_DIGITS_MIN || digits > STAMP_DIGITS_MAX) {
      return OptionalLong.empty();
    }
    long at = 0;
    for (int i = key.length() - digits; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < '0' || c > '9') {
        return OptionalLong.empty();
      }
      at = at * 10 + (c - '0');
    }
    return OptionalLong.of(at);
  }

  /**
   * The set's exptime is the key's expiry time itself, as a Unix time (memcached reads one above 30 days so): the
   * value expires when its key says however late the set arrives, where seconds from now would count from the
   * arrival, later than the stamp under load.
   *
   * @param key a key as written
   * @return the set's exptime: the key's expiry time in Unix seconds; 0 (never) for a key without one
   */
  public static long exptimeOf(String key) {
    return expiresAt(key).orElse(0);
  }

  /**
   * @param key a key as written
   * @param nowMillis the time of the read, Unix milliseconds
   * @return whether the key's value must be there, may be, or must be gone
   */
  public static State stateOf(String key, long nowMillis) {
    OptionalLong at = expiresAt(key);
    if (at.isEmpty() || nowMillis < at.getAsLong() * 1000 - UNSETTLED_BEFORE_MILLIS) {
      return State.LIVE;
    }
    return nowMillis < at.getAsLong() * 1000 + SETTLED_AFTER_MILLIS ? State.UNSETTLED : State.EXPIRED;
  }

  /** @return e.g. "each value expiring 60-300 s after its set, drawn uniformly (-Dexpiry)"; "" without expiry */
  public String describe() {
    if (!expires()) {
      return "";
    }
    return low == high ? "each value expiring " + low + " s after its set (-Dexpiry)"
        : "each value expiring " + low + "-" + high + " s after its set, drawn uniformly (-Dexpiry)";
  }
}
