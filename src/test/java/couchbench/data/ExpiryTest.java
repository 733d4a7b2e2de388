package couchbench.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.SettingsException;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** -Dexpiry: its forms, the expiry time a key carries, and what a read at a given time makes of it. */
class ExpiryTest {

  private static final long NOW = 1_796_400_000_000L; // Unix milliseconds, on a whole second
  private static final String KEY = "0cc175b9c0f1b6a831c399e269772661";

  @Test
  void shouldLeaveKeysAsTheyAreWithoutExpiry() {
    assertFalse(Expiry.parse("0").expires());
    assertEquals(KEY, Expiry.NONE.stamp(KEY, NOW));
    assertEquals(OptionalLong.empty(), Expiry.expiresAt(KEY));
    assertEquals(0, Expiry.exptimeOf(KEY), "exptime 0: never");
    assertEquals(Expiry.State.LIVE, Expiry.stateOf(KEY, NOW + 1_000_000_000L), "a key without expiry never expires");
    assertEquals("", Expiry.NONE.describe());
  }

  @Test
  void shouldStampEachKeyWithAnExpiryTimeDrawnFromTheRange() {
    Expiry range = Expiry.parse("60-300");
    Set<Long> lives = new HashSet<>();
    for (int i = 0; i < 2000; i++) {
      String key = range.stamp(KEY, NOW);
      assertTrue(key.startsWith(KEY + "-x"), key);
      long life = Expiry.expiresAt(key).getAsLong() - NOW / 1000;
      assertTrue(life >= 60 && life <= 300, "drawn from 60-300: " + life);
      assertEquals(NOW / 1000 + life, Expiry.exptimeOf(key), "the set's exptime is the expiry time, as a Unix time");
      lives.add(life);
    }
    assertTrue(lives.contains(60L) && lives.contains(300L) && lives.size() > 200, "uniform, ends included");
    assertEquals(KEY + "-x" + (NOW / 1000 + 60), Expiry.parse("60").stamp(KEY, NOW));
    assertEquals("each value expiring 60-300 s after its set, drawn uniformly (-Dexpiry)", range.describe());
  }

  @Test
  void shouldTellLiveFromExpiredWithTheServersSecondsBetween() {
    String key = Expiry.parse("10").stamp(KEY, NOW);
    long at = NOW + 10_000;
    assertEquals(Expiry.State.LIVE, Expiry.stateOf(key, at - 1001));
    assertEquals(Expiry.State.UNSETTLED, Expiry.stateOf(key, at - 1000), "a second before: the server may be ahead");
    assertEquals(Expiry.State.UNSETTLED, Expiry.stateOf(key, at + 1999), "its clock ticks in whole seconds");
    assertEquals(Expiry.State.EXPIRED, Expiry.stateOf(key, at + 2000));
  }

  @Test
  void shouldRefuseWhatDoesNotParseInOneLine() {
    Map<String, String> cases = Map.of(
        "soon", "-Dexpiry=soon does not parse: give seconds (60), a range drawn uniformly (60-300), or 0 for none",
        "300-60", "-Dexpiry=300-60: the low end is above the high end: give -Dexpiry=60-300",
        "60-2592001", "-Dexpiry=60-2592001: memcached reads more than 2592000 seconds (30 days) as a date: give at"
            + " most 2592000",
        "0-60", "-Dexpiry=0-60: an expiry of 0 means none, not now: give a range from 1 s");
    cases.forEach((given, message) ->
        assertEquals(message, assertThrows(SettingsException.class, () -> Expiry.parse(given)).getMessage()));
  }
}
