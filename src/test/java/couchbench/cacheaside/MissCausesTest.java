package couchbench.cacheaside;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MissCausesTest {

  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  private final MissCauses causes = new MissCauses(10);

  @Test
  void shouldCallAMissColdUntilASetOfItsKeyWasAcknowledgedBeforeItsGetBegan() {
    causes.missed("key000001", 100, 110, MissCauses.Won.NONE);
    causes.cached("key000001", 150); // after the next get began: that get could not find it
    causes.missed("key000001", 140, 160, MissCauses.Won.NONE);

    assertEquals(new CacheAsideFigures.Misses(2, 0, 0, 0, 0, null, null), causes.counts(null, null));
  }

  @Test
  void shouldCallAMissAfterAnUpdatesDeleteInvalidatedAndOneWithoutEvicted() {
    causes.cached("key000001", 100);
    causes.invalidating("key000001", 200);
    causes.missed("key000001", 300, 310, MissCauses.Won.NONE);
    causes.cached("key000001", 320);
    causes.missed("key000001", 400, 410, MissCauses.Won.NONE); // set, not invalidated since, within its TTL

    assertEquals(new CacheAsideFigures.Misses(0, 1, 0, 1, 0, 5L, 0L), causes.counts(5L, 0L));
  }

  @Test
  void shouldCountAnInvalidationSentBeforeTheGetsReplyButNotOneSentAfter() {
    causes.cached("key000001", 100);
    causes.invalidating("key000001", 305); // sent while the get was on its way: it may have landed first
    causes.missed("key000001", 300, 310, MissCauses.Won.NONE);
    causes.cached("key000002", 100);
    causes.invalidating("key000002", 311);
    causes.missed("key000002", 300, 310, MissCauses.Won.NONE);

    assertEquals(new CacheAsideFigures.Misses(0, 1, 0, 1, 0, null, null), causes.counts(null, null));
  }

  @Test
  void shouldCallAMissExpiredFromOneSecondBeforeItsTtlEnds() {
    causes.cached("key000001", 0);
    causes.missed("key000001", 9 * SECOND - 1, 9 * SECOND, MissCauses.Won.NONE); // memcached's tick not yet come
    causes.missed("key000001", 9 * SECOND, 9 * SECOND + 10, MissCauses.Won.NONE);
    new MissCauses(0).missed("key000001", 0, 1, MissCauses.Won.NONE);

    assertEquals(new CacheAsideFigures.Misses(0, 0, 1, 1, 0, null, null), causes.counts(null, null));
  }

  @Test
  void shouldNeverExpireAKeySetWithoutATtl() {
    MissCauses forever = new MissCauses(0);
    forever.cached("key000001", 0);
    forever.missed("key000001", 3_600 * SECOND, 3_600 * SECOND + 1, MissCauses.Won.NONE);

    assertEquals(new CacheAsideFigures.Misses(0, 0, 0, 1, 0, null, null), forever.counts(null, null));
  }

  @Test
  void shouldCallAWinOfAValueFlaggedStaleInvalidatedAndOfAFreshOneRecached() {
    causes.cached("key000001", 0);
    causes.missed("key000001", 100, 110, MissCauses.Won.FLAGGED_STALE);
    causes.missed("key000001", 200, 210, MissCauses.Won.TTL_BELOW_R);

    CacheAsideFigures.Misses counts = causes.counts(null, null);
    assertEquals(new CacheAsideFigures.Misses(0, 1, 0, 0, 1, null, null), counts);
    assertEquals(2, counts.total());
  }
}
